import {
  COMPARE_MAX,
  formatChange,
  formatDecimal2,
  formatPercent,
  formatRoubles,
  type MarketRow,
  NO_PLACE,
  PLACE_GROUP_LABELS,
  PLACE_GROUPS,
  type PlaceGroup,
  PRICE_CLASS_LABELS,
  placeParentLabel,
} from '@cena-metra/contract';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, parseSortValue, SortButton, SortSelect, sortValue } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { Pager } from '../../components/pager';
import { DataState } from '../../components/states';
import { Button, Card, Select } from '../../components/ui';
import { dashboardUrl } from '../../lib/dashboard-url';
import { pageOf } from '../../lib/paging';
import { marketSheet } from './lib/market-sheet';
import type { MarketFilters, MarketSortKey, MarketView } from './lib/market-table';

const dash = '—';
const num = (v: number | null, f: (v: number) => string = String) => (v === null ? dash : f(v));

/** The table's columns after the name: label, value, sort key. */
export const MARKET_COLUMNS: { key: MarketSortKey; label: string; cell: (r: MarketRow) => string }[] = [
  {
    key: 'priceClass',
    label: 'Класс',
    cell: (r) => (r.priceClass ? PRICE_CLASS_LABELS[r.priceClass] : dash),
  },
  { key: 'stock', label: 'В продаже', cell: (r) => String(r.stock) },
  { key: 'new30', label: 'Новые за 30 дн.', cell: (r) => String(r.new30) },
  { key: 'gone30', label: 'Выбыли за 30 дн.', cell: (r) => String(r.gone30) },
  { key: 'absorption', label: 'Вымываемость 30 дн.', cell: (r) => num(r.absorption, formatPercent) },
  { key: 'monthsOfSupply', label: 'Запас, мес.', cell: (r) => num(r.monthsOfSupply, formatDecimal2) },
  {
    key: 'medianDaysOnMarket',
    label: 'Срок продажи, дн.',
    cell: (r) => num(r.medianDaysOnMarket, (v) => formatDecimal2(v).replace(/,00$/, '')),
  },
  { key: 'avgMeterPrice', label: 'Ср. цена м², ₽', cell: (r) => num(r.avgMeterPrice, formatRoubles) },
  { key: 'indexChange', label: 'Индекс за период', cell: (r) => formatChange(r.indexChange) },
];

const VIEWS: [MarketView, string][] = [
  ['projects', 'Проекты'],
  ['developers', 'Застройщики'],
  ['places', 'По месту'],
];

export function formatDay(iso: string): string {
  return new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');
}

/** «Рынок»'s table: projects, developers, or the selection by place (DESIGN §11.3), sorted, with exports. */
export function MarketTableCard({
  f,
  update,
  rows,
  loading,
  error,
  picked,
  toggle,
  fileBase,
}: {
  f: MarketFilters;
  update: (next: Partial<MarketFilters>) => void;
  rows: MarketRow[];
  loading: boolean;
  error: Error | null;
  picked: number[];
  toggle: (id: number) => void;
  fileBase: string;
}) {
  const header = (key: MarketSortKey, label: string) => (
    <SortButton
      label={label}
      sorted={f.sort.key === key ? f.sort.dir : null}
      onClick={() =>
        update({ sort: { key, dir: f.sort.key === key && f.sort.dir === 'desc' ? 'asc' : 'desc' } })
      }
    />
  );
  // a place's name narrows the selection to it and shows its projects
  const openPlace = (r: MarketRow) => {
    const parent = f.groupBy === 'city' ? 'region' : 'city';
    update({
      [f.groupBy]: r.name,
      ...(f.groupBy !== 'region' && r.parent && { [parent]: r.parent }),
      view: 'projects',
    });
  };
  // a hundred rows at a time: the whole country is thousands of projects, a thousand districts
  const [page, setPage] = useState(1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another table, order or selection starts on page 1
  useEffect(() => setPage(1), [f.view, f.groupBy, f.sort.key, f.sort.dir, rows.length]);
  const current = pageOf(rows, page);
  const parentLabel = f.view === 'places' ? placeParentLabel(f.groupBy) : null;
  const nameLabel =
    f.view === 'projects' ? 'Проект' : f.view === 'developers' ? 'Застройщик' : PLACE_GROUP_LABELS[f.groupBy];
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <fieldset className="flex gap-1" aria-label="Таблица">
            {VIEWS.map(([view, label]) => (
              <Button
                key={view}
                color={f.view === view ? 'info' : 'white'}
                aria-pressed={f.view === view}
                data-testid={`market-view-${view}`}
                onClick={() => update({ view })}
              >
                {label}
              </Button>
            ))}
          </fieldset>
          {f.view === 'places' && (
            <div className="w-44">
              <Select
                label="Группировать"
                testId="market-group"
                value={f.groupBy}
                options={PLACE_GROUPS.map((g) => ({ value: g, label: PLACE_GROUP_LABELS[g] }))}
                onChange={(v) => update({ groupBy: v as PlaceGroup })}
              />
            </div>
          )}
        </div>
        <ExportButtons
          fileName={
            f.view === 'places' ? `${fileBase} ${PLACE_GROUP_LABELS[f.groupBy].toLowerCase()}` : fileBase
          }
          disabled={rows.length === 0}
          sheet={() => marketSheet(rows, f.view, f.groupBy)}
          testId="market-export"
        />
      </div>
      <DataState
        loading={loading}
        error={error}
        empty={rows.length === 0}
        emptyText="За этот период данных нет. Измените даты или фильтры."
      >
        <SortSelect
          testId="market-sort"
          columns={[{ key: 'name', label: 'Название' }, ...MARKET_COLUMNS]}
          value={sortValue(f.sort.key, f.sort.dir)}
          onChange={(v) => update({ sort: parseSortValue<MarketSortKey>(v) })}
        />
        <div className="overflow-x-auto">
          <DataTable testId="market-table">
            <thead>
              <tr>
                {f.view === 'projects' && <th data-label="Сравнить" />}
                <th>{header('name', nameLabel)}</th>
                {f.view === 'projects' ? <th>{header('developerName', 'Застройщик')}</th> : <th>Проектов</th>}
                {f.view === 'projects' && <th>Район</th>}
                {parentLabel && <th>{parentLabel}</th>}
                {MARKET_COLUMNS.map((c) => (
                  <th key={c.key} className="text-right">
                    {header(c.key, c.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {current.rows.map((r) => (
                <tr key={r.id} data-testid="market-row">
                  {f.view === 'projects' && (
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Сравнить «${r.name}»`}
                        checked={picked.includes(r.id)}
                        disabled={!picked.includes(r.id) && picked.length >= COMPARE_MAX}
                        onChange={() => toggle(r.id)}
                      />
                    </td>
                  )}
                  <td>
                    {f.view === 'places' && r.name === NO_PLACE ? (
                      <span className="text-gray-500">{r.name}</span>
                    ) : f.view === 'projects' ? (
                      <Link
                        className="text-blue-600 hover:underline dark:text-blue-400"
                        to={dashboardUrl(r.developerId, r.id)}
                      >
                        {r.name}
                      </Link>
                    ) : (
                      <button
                        type="button"
                        className="text-blue-600 hover:underline dark:text-blue-400"
                        onClick={() =>
                          f.view === 'developers'
                            ? update({ developerId: r.id, view: 'projects' })
                            : openPlace(r)
                        }
                      >
                        {r.name}
                      </button>
                    )}
                    {r.date !== f.to && (
                      <span className="ml-2 text-gray-500 text-xs" title="Последний день с данными в периоде">
                        на {formatDay(r.date)}
                      </span>
                    )}
                  </td>
                  <td>{f.view === 'projects' ? r.developerName : r.projects}</td>
                  {f.view === 'projects' && (
                    <td title={r.place?.address ?? undefined}>
                      {[r.place?.district, r.place?.city].filter(Boolean).join(', ') || dash}
                    </td>
                  )}
                  {parentLabel && <td>{r.parent || dash}</td>}
                  {MARKET_COLUMNS.map((c) => (
                    <td key={c.key} className="text-right">
                      {c.cell(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </DataTable>
        </div>
        {current.pages > 1 && (
          <Pager page={current.page} pages={current.pages} onPage={setPage} testId="market-pager" />
        )}
      </DataState>
    </Card>
  );
}
