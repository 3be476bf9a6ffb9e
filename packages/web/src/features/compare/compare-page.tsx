import {
  COMPARE_MAX,
  COMPARE_METRIC_LABELS,
  COMPARE_METRICS,
  type CompareResponse,
  formatChange,
  formatDecimal2,
  formatRoubles,
  placeLine,
} from '@cena-metra/contract';
import { mdiClose, mdiScaleBalance } from '@mdi/js';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSearch } from '../../api/search';
import { PALETTE } from '../../components/chart/palette';
import { TimeChart } from '../../components/chart/time-chart';
import type { ChartSeries } from '../../components/chart/types';
import { ColumnTable } from '../../components/column-table';
import { Switch } from '../../components/controls';
import { DateRange } from '../../components/date-input';
import { ExportButtons } from '../../components/export-buttons';
import { Icon } from '../../components/icon';
import { DataState } from '../../components/states';
import { Button, Card, inputClass, Section, SectionTitle } from '../../components/ui';
import { useOutsideClick } from '../../components/use-outside-click';
import type { Column } from '../../lib/columns';
import { todayLocal } from '../../lib/dates';
import { useDebounced } from '../../lib/use-debounced';
import { useTitle } from '../../lib/use-title';
import { useCompare } from './api';
import { compareSheet } from './lib/compare-sheet';
import {
  type CompareState,
  readCompare,
  seriesChange,
  withoutProject,
  withProject,
  writeCompare,
} from './lib/compare-url';

/** A project's series with its first and last values of the period and the change between them. */
type PeriodRow = CompareResponse['series'][number] & ReturnType<typeof seriesChange>;

/** «За период»: each project's first and last value of the metric and the change between them. */
function periodColumns(value: (v: number) => string): Column<PeriodRow>[] {
  const shown = (p: { value: number } | null) => (p ? value(p.value) : '—');
  return [
    { key: 'project', label: 'Проект', type: 'text', value: (x) => x.projectName },
    { key: 'developer', label: 'Застройщик', type: 'text', value: (x) => x.developerName },
    {
      key: 'place',
      label: 'Где',
      type: 'text',
      value: (x) => placeLine(x.place) || null,
      cell: (x) => <span title={x.place.address ?? undefined}>{placeLine(x.place) || '—'}</span>,
    },
    {
      key: 'first',
      label: 'В начале',
      type: 'decimal',
      value: (x) => x.first?.value ?? null,
      text: (x) => shown(x.first),
    },
    {
      key: 'last',
      label: 'В конце',
      type: 'decimal',
      value: (x) => x.last?.value ?? null,
      text: (x) => shown(x.last),
    },
    {
      key: 'change',
      label: 'Изменение',
      type: 'decimal',
      value: (x) => x.change,
      text: (x) => formatChange(x.change),
    },
  ];
}

/** «Сравнение»: up to 10 projects on one chart per metric; the state lives in the URL. */
export function ComparePage() {
  useTitle('Сравнение проектов');
  const today = todayLocal();
  const [params, setParams] = useSearchParams();
  const s = readCompare(params, today);
  const update = (next: CompareState) => setParams(writeCompare(next, today));
  const rangeError = s.from > s.to ? 'Дата начала позже даты окончания.' : null;
  const q = useCompare(
    s.projectIds.length && !rangeError
      ? {
          projectIds: s.projectIds,
          from: s.from,
          to: s.to,
          metric: s.metric,
          status: s.availableOnly ? 'AVAILABLE' : 'ALL',
        }
      : null,
  );
  const data = q.data && q.data.metric === s.metric ? q.data : undefined;
  const series = useMemo<ChartSeries[]>(
    () =>
      (data?.series ?? []).map((x, i) => ({
        name: x.projectName,
        kind: 'breakdown',
        color: PALETTE[i % PALETTE.length],
        data: x.points.map((p) => [p.date, p.value]),
      })),
    [data],
  );
  // each project's first, last and change, once per answer (not once per cell and render)
  const periods = useMemo(
    () => (data?.series ?? []).map((x) => ({ ...x, ...seriesChange(x.points) })),
    [data],
  );
  const value = (v: number) =>
    s.metric === 'avgMeterPrice' ? formatRoubles(v) : s.metric === 'stock' ? String(v) : formatDecimal2(v);
  const names = new Map(data?.series.map((x) => [x.projectId, `${x.projectName} · ${x.developerName}`]));
  const fileBase = `Сравнение ${COMPARE_METRIC_LABELS[s.metric]} ${s.from} — ${s.to}`;
  return (
    <Section>
      <SectionTitle icon={mdiScaleBalance}>Сравнение проектов</SectionTitle>
      <div className="mb-4 flex flex-wrap items-center gap-2" data-testid="compare-projects">
        {s.projectIds.map((id, i) => (
          <span
            key={id}
            className="inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm dark:border-slate-600"
            style={{ borderColor: PALETTE[i % PALETTE.length] }}
          >
            <span className="h-2 w-2 rounded-full" style={{ background: PALETTE[i % PALETTE.length] }} />
            {names.get(id) ?? `Проект ${id}`}
            <button
              type="button"
              aria-label={`Убрать «${names.get(id) ?? id}»`}
              className="rounded-full hover:bg-gray-100 dark:hover:bg-slate-700"
              onClick={() => update(withoutProject(s, id))}
            >
              <Icon path={mdiClose} size={14} />
            </button>
          </span>
        ))}
        {s.projectIds.length < COMPARE_MAX ? (
          <ProjectPicker exclude={s.projectIds} onPick={(id) => update(withProject(s, id))} />
        ) : (
          <span className="text-gray-500 text-sm">Не больше {COMPARE_MAX} проектов</span>
        )}
      </div>
      <div className="mb-6 grid grid-cols-1 items-end gap-4 md:grid-cols-4">
        <DateRange
          from={s.from}
          to={s.to}
          ids={{ from: 'compare-from', to: 'compare-to' }}
          onChange={(range) => update({ ...s, ...range })}
        />
        <div className="flex h-12 items-center md:col-span-2">
          <Switch
            checked={s.availableOnly}
            data-testid="compare-available"
            onChange={(e) => update({ ...s, availableOnly: e.target.checked })}
          >
            Только свободные
          </Switch>
        </div>
      </div>
      <fieldset className="mb-6 flex flex-wrap gap-1" aria-label="Показатель">
        {COMPARE_METRICS.map((m) => (
          <Button
            key={m}
            color={m === s.metric ? 'info' : 'white'}
            aria-pressed={m === s.metric}
            data-testid={`compare-metric-${m}`}
            onClick={() => update({ ...s, metric: m })}
          >
            {COMPARE_METRIC_LABELS[m]}
          </Button>
        ))}
      </fieldset>
      {rangeError && (
        <p className="mb-6 rounded-lg bg-amber-500 px-4 py-3 text-white" role="alert">
          {rangeError}
        </p>
      )}
      {s.projectIds.length === 0 ? (
        <p
          className="rounded-2xl bg-white p-10 text-center text-gray-500 dark:bg-slate-900/70 dark:text-slate-400"
          data-testid="compare-empty"
        >
          Добавьте проекты через поиск выше или отметьте их на странице «Рынок».
        </p>
      ) : (
        <DataState loading={!data && !q.error} error={q.error}>
          <div className="mb-6">
            <TimeChart
              id="compare"
              title={COMPARE_METRIC_LABELS[s.metric]}
              series={series}
              height={420}
              fileName={fileBase}
              look={{
                smooth: false,
                alwaysSteps: s.metric === 'stock',
                yName: COMPARE_METRIC_LABELS[s.metric],
                counts: s.metric === 'stock',
                decimals: s.metric === 'index' || s.metric === 'absorption',
              }}
            />
          </div>
          <Card>
            <div className="mb-4 flex items-center justify-between gap-3">
              <h2 className="font-semibold text-lg">За период</h2>
              {data && (
                <ExportButtons fileName={fileBase} sheet={() => compareSheet(data)} testId="compare-export" />
              )}
            </div>
            <ColumnTable
              columns={periodColumns(value)}
              rows={periods}
              rowKey={(x) => x.projectId}
              testId="compare-table"
            />
          </Card>
        </DataState>
      )}
    </Section>
  );
}

/** A search of projects to add: type, pick one from the list. */
function ProjectPicker({ exclude, onPick }: { exclude: number[]; onPick: (id: number) => void }) {
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useOutsideClick(box, open, () => setOpen(false));
  const term = useDebounced(q.trim(), 250);
  const results = useSearch(term);
  const hits = (results.data?.projects ?? []).filter((p) => !exclude.includes(p.id));
  return (
    <div ref={box} className="relative w-72">
      <input
        type="search"
        className={`${inputClass} h-9`}
        placeholder="Добавить проект…"
        aria-label="Добавить проект"
        data-testid="compare-add"
        value={q}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
        }}
      />
      {open && term && (
        <ul className="absolute top-10 left-0 z-40 w-full rounded-lg border border-gray-100 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-800">
          {hits.length === 0 && (
            <li className="px-4 py-2 text-gray-500">{results.isFetching ? 'Ищу…' : 'Ничего не найдено'}</li>
          )}
          {hits.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="w-full px-4 py-2 text-left hover:bg-gray-100 dark:hover:bg-slate-700"
                onClick={() => {
                  onPick(p.id);
                  setQ('');
                  setOpen(false);
                }}
              >
                {p.name} · {p.developerName}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
