import {
  DISCOUNT_BASES,
  DISCOUNT_BASIS_LABELS,
  DISCOUNT_PERIODS,
  type DiscountBasis,
  type DiscountFlat,
  type DiscountPeriod,
  type DiscountProjectRow,
  formatPercent,
  formatRoubles,
} from '@cena-metra/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDevelopers } from '../../api/catalog';
import { ColumnTable } from '../../components/column-table';
import { ExportButtons } from '../../components/export-buttons';
import { flatColumns } from '../../components/flat-cells';
import { DataState } from '../../components/states';
import { Button, Card, inputClass } from '../../components/ui';
import { type Column, numberColumn, sheetOf } from '../../lib/columns';
import { useFlatDiscounts, useProjectDiscounts } from './api';
import { type DiscountSortKey, PERIOD_LABELS, sortProjectRows } from './lib/table';

/** «Скидки по проектам»: a row per project; the same columns are shown, sorted and exported. */
const PROJECT_COLUMNS: Column<DiscountProjectRow>[] = [
  {
    key: 'projectName',
    label: 'Проект',
    type: 'text',
    value: (r) => r.projectName,
    cell: (r) => (
      <button type="button" className="text-left text-blue-600 hover:underline dark:text-blue-400">
        {r.projectName}
      </button>
    ),
  },
  { key: 'developerName', label: 'Застройщик', type: 'text', value: (r) => r.developerName, sortable: false },
  numberColumn('activeFlats', 'В продаже', 'integer', (r) => r.activeFlats),
  numberColumn('discountedFlats', 'Со скидкой', 'integer', (r) => r.discountedFlats),
  numberColumn('maxDiscountPercent', 'Макс. скидка', 'decimal', (r) => r.maxDiscountPercent, formatPercent, {
    header: 'Макс. скидка, %',
  }),
  numberColumn('avgDiscountPercent', 'Сред. скидка', 'decimal', (r) => r.avgDiscountPercent, formatPercent, {
    header: 'Сред. скидка, %',
  }),
  numberColumn('avgMeterPrice', 'Сред. цена м², ₽', 'decimal', (r) => r.avgMeterPrice, formatRoubles),
];

/** A project's largest discounts, flat by flat. */
const TOP_COLUMNS: Column<DiscountFlat>[] = [
  ...flatColumns<DiscountFlat>(),
  numberColumn('refPrice', 'Была, ₽', 'integer', (r) => r.refPrice, formatRoubles),
  numberColumn('price', 'Стала, ₽', 'integer', (r) => r.price, formatRoubles),
  numberColumn('discountPercent', 'Скидка', 'decimal', (r) => r.discountPercent, formatPercent, {
    header: 'Скидка, %',
    className: () => 'text-emerald-600',
  }),
];

function TopDiscounts({
  period,
  basis,
  projectId,
  name,
}: {
  period: DiscountPeriod;
  basis: DiscountBasis;
  projectId: number;
  name: string;
}) {
  const q = useFlatDiscounts({ period, basis, projectId, limit: 20 });
  // On a phone the list of projects is long: bring the chosen project's discounts into view.
  const ref = useRef<HTMLDivElement>(null);
  // (In braces: Chromium's scrollIntoView returns a promise, which React would take for a cleanup.)
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, []);
  return (
    <div ref={ref} className="scroll-mt-16">
      <Card
        className="mt-6"
        title={
          <span className="flex flex-wrap items-center justify-between gap-3">
            Крупнейшие скидки: {name}
            <ExportButtons
              fileName={`Скидки ${name}`}
              disabled={!q.data?.rows.length}
              sheet={() => sheetOf('Крупнейшие скидки', TOP_COLUMNS, q.data?.rows ?? [])}
              testId="top-discounts-export"
            />
          </span>
        }
      >
        <DataState
          loading={q.isLoading}
          error={q.error}
          empty={q.data?.rows.length === 0}
          emptyText="Скидок за этот период нет."
        >
          <ColumnTable
            columns={TOP_COLUMNS}
            rows={q.data?.rows ?? []}
            rowKey={(r) => r.flatId}
            testId="top-discounts"
          />
        </DataState>
      </Card>
    </div>
  );
}

/** /discounts-by-project: a period and a developer; a row per project; a row opens its largest discounts. */
export function DiscountsByProject() {
  const [params, setParams] = useSearchParams();
  const period = (DISCOUNT_PERIODS as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as DiscountPeriod)
    : 'WEEK';
  // §11.4: the developer's crossed-out price, or §4.3's price history (the default); never mixed
  const basis: DiscountBasis = params.get('basis') === 'developer' ? 'developer' : 'history';
  const developerId = Number(params.get('developer')) || undefined;
  const selected = Number(params.get('project')) || null;
  const set = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) v === undefined ? p.delete(k) : p.set(k, v);
    setParams(p);
  };
  const developers = useDevelopers();
  const q = useProjectDiscounts({ period, basis, developerId });
  const [sort, setSort] = useState<{ key: DiscountSortKey; dir: 'asc' | 'desc' }>({
    key: 'maxDiscountPercent',
    dir: 'desc',
  });
  const rows = useMemo(() => sortProjectRows(q.data?.rows ?? [], sort.key, sort.dir), [q.data, sort]);
  const chosen = rows.find((r) => r.projectId === selected);
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <fieldset className="flex gap-1" aria-label="Период">
          {DISCOUNT_PERIODS.map((p) => (
            <Button
              key={p}
              color={p === period ? 'info' : 'white'}
              aria-pressed={p === period}
              // the developer's discount is of the day's list, not of a period
              disabled={basis === 'developer'}
              onClick={() => set({ period: p })}
            >
              {PERIOD_LABELS[p]}
            </Button>
          ))}
        </fieldset>
        <fieldset className="flex gap-1" aria-label="Скидка">
          {DISCOUNT_BASES.map((b) => (
            <Button
              key={b}
              color={b === basis ? 'info' : 'white'}
              aria-pressed={b === basis}
              data-testid={`discount-basis-${b}`}
              onClick={() => set({ basis: b === 'history' ? undefined : b, project: undefined })}
            >
              {DISCOUNT_BASIS_LABELS[b]}
            </Button>
          ))}
        </fieldset>
        <label className="block min-w-56">
          <span className="mb-1 block font-semibold text-sm">Застройщик</span>
          <select
            className={inputClass}
            data-testid="discount-developer"
            value={developerId ? String(developerId) : ''}
            onChange={(e) => set({ developer: e.target.value || undefined, project: undefined })}
          >
            <option value="">Все</option>
            {(developers.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        {q.data?.date && (
          <span className="pb-3 text-gray-500 text-sm">
            на {new Date(`${q.data.date}T00:00:00`).toLocaleDateString('ru-RU')}
          </span>
        )}
      </div>
      <DataState loading={q.isLoading} error={q.error} empty={rows.length === 0} emptyText="Проектов нет.">
        <div className="mb-4 flex justify-end">
          <ExportButtons
            fileName={`Скидки по проектам ${basis === 'developer' ? DISCOUNT_BASIS_LABELS.developer : PERIOD_LABELS[period]}`}
            sheet={() => sheetOf('Скидки по проектам', PROJECT_COLUMNS, rows)}
            testId="discount-projects-export"
          />
        </div>
        <div className="rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={PROJECT_COLUMNS}
            rows={rows}
            rowKey={(r) => r.projectId}
            testId="discount-projects"
            sort={sort}
            onSort={(key) =>
              setSort((s) => ({
                key: key as DiscountSortKey,
                dir: s.key === key && s.dir === 'desc' ? 'asc' : 'desc',
              }))
            }
            onSortSelect={(next) => next && setSort(next as { key: DiscountSortKey; dir: 'asc' | 'desc' })}
            sortSelectId="discount-sort"
            onRowClick={(r) => set({ project: String(r.projectId) })}
            rowClassName={(r) => (r.projectId === selected ? 'bg-blue-50 dark:bg-slate-700' : undefined)}
          />
        </div>
      </DataState>
      {chosen && (
        <TopDiscounts
          key={`${chosen.projectId}-${period}-${basis}`}
          period={period}
          basis={basis}
          projectId={chosen.projectId}
          name={chosen.projectName}
        />
      )}
    </div>
  );
}
