import { inputClass } from './ui';

/** A labelled date field of the filter bars; an emptied field changes nothing. */
export function DateInput({
  label,
  value,
  min,
  max,
  testId,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  testId: string;
  onChange: (date: string) => void;
}) {
  return (
    <label className="block">
      <span className="mb-1 block font-semibold text-sm">{label}</span>
      <input
        type="date"
        className={inputClass}
        value={value}
        min={min}
        max={max}
        data-testid={testId}
        onChange={(e) => e.target.value && onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * The period of a page (DESIGN §12.2: one control on every page with a period): «Дата начала» and «Дата
 * окончания» as two cells of the filter bar's grid, each bounded by the other. `onChange` gets the whole
 * period; `testId` names the fields `${testId}-from` and `${testId}-to` unless `ids` says otherwise.
 */
export function DateRange({
  from,
  to,
  onChange,
  ids,
}: {
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
  /** the fields' test ids (kept from before the control was shared) */
  ids: { from: string; to: string };
}) {
  return (
    <>
      <DateInput
        label="Дата начала"
        value={from}
        max={to}
        testId={ids.from}
        onChange={(d) => onChange({ from: d, to })}
      />
      <DateInput
        label="Дата окончания"
        value={to}
        min={from}
        testId={ids.to}
        onChange={(d) => onChange({ from, to: d })}
      />
    </>
  );
}
