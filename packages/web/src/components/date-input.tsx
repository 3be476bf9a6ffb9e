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
