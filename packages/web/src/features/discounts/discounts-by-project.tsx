import {
  DISCOUNT_BASES,
  DISCOUNT_BASIS_LABELS,
  DISCOUNT_PERIODS,
  type DiscountBasis,
  type DiscountPeriod,
  formatPercent,
  formatRoubles,
} from '@cena-metra/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDevelopers } from '../../api/catalog';
import { DataTable, parseSortValue, SortButton, SortSelect, sortValue } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { FLAT_COLUMNS, FlatLinkCell, FlatRecordCells, HeaderCells } from '../../components/flat-cells';
import { DataState } from '../../components/states';
import { Button, Card, inputClass } from '../../components/ui';
import { useFlatDiscounts, useProjectDiscounts } from './api';
import { discountProjectsSheet, topDiscountsSheet } from './lib/discount-sheets';
import { type DiscountSortKey, PERIOD_LABELS, sortProjectRows } from './lib/table';

const COLUMNS: { key: DiscountSortKey; label: string; format: (v: number | null) => string }[] = [
  { key: 'activeFlats', label: 'В продаже', format: (v) => String(v) },
  { key: 'discountedFlats', label: 'Со скидкой', format: (v) => String(v) },
  { key: 'maxDiscountPercent', label: 'Макс. скидка', format: (v) => formatPercent(v ?? 0) },
  { key: 'avgDiscountPercent', label: 'Сред. скидка', format: (v) => formatPercent(v ?? 0) },
  { key: 'avgMeterPrice', label: 'Сред. цена м², ₽', format: (v) => (v === null ? '—' : formatRoubles(v)) },
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
              sheet={() => topDiscountsSheet(q.data?.rows ?? [])}
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
          <div className="overflow-x-auto">
            <DataTable testId="top-discounts">
              <thead>
                <tr>
                  <HeaderCells labels={[...FLAT_COLUMNS, 'Была, ₽', 'Стала, ₽', 'Скидка']} />
                </tr>
              </thead>
              <tbody>
                {q.data?.rows.map((r) => (
                  <tr key={r.flatId}>
                    <FlatLinkCell flatId={r.flatId} />
                    <FlatRecordCells {...r} />
                    <td className="text-right">{formatRoubles(r.refPrice)}</td>
                    <td className="text-right">{formatRoubles(r.price)}</td>
                    <td className="text-right text-emerald-600">{formatPercent(r.discountPercent)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </div>
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
  const header = (key: DiscountSortKey, label: string) => (
    <SortButton
      label={label}
      sorted={sort.key === key ? sort.dir : null}
      onClick={() => setSort((s) => ({ key, dir: s.key === key && s.dir === 'desc' ? 'asc' : 'desc' }))}
    />
  );
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
            sheet={() => discountProjectsSheet(rows)}
            testId="discount-projects-export"
          />
        </div>
        <SortSelect
          testId="discount-sort"
          columns={[{ key: 'projectName', label: 'Проект' }, ...COLUMNS]}
          value={sortValue(sort.key, sort.dir)}
          onChange={(v) => setSort(parseSortValue<DiscountSortKey>(v))}
        />
        <div className="overflow-x-auto rounded-2xl bg-white dark:bg-slate-900/70">
          <DataTable testId="discount-projects">
            <thead>
              <tr>
                <th>{header('projectName', 'Проект')}</th>
                <th>Застройщик</th>
                {COLUMNS.map((c) => (
                  <th key={c.key} className="text-right">
                    {header(c.key, c.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.projectId}
                  className={`cursor-pointer ${r.projectId === selected ? 'bg-blue-50 dark:bg-slate-700' : ''}`}
                  onClick={() => set({ project: String(r.projectId) })}
                >
                  <td>
                    <button
                      type="button"
                      className="text-left text-blue-600 hover:underline dark:text-blue-400"
                    >
                      {r.projectName}
                    </button>
                  </td>
                  <td>{r.developerName}</td>
                  {COLUMNS.map((c) => (
                    <td key={c.key} className="text-right">
                      {c.format(r[c.key] as number | null)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </DataTable>
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
