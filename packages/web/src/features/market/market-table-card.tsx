import { type MarketRow, PLACE_GROUP_LABELS, PLACE_GROUPS, type PlaceGroup } from '@cena-metra/contract';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ColumnTable } from '../../components/column-table';
import { ExportButtons } from '../../components/export-buttons';
import { Pager } from '../../components/pager';
import { DataState } from '../../components/states';
import { Button, Card, Select } from '../../components/ui';
import { dashboardUrl } from '../../lib/dashboard-url';
import { pageOf } from '../../lib/paging';
import { useReliability } from './api';
import { marketColumns } from './lib/market-columns';
import { marketSheet } from './lib/market-sheet';
import type { MarketFilters, MarketSortKey, MarketView } from './lib/market-table';
import { MarketBelow } from './market-below';

const VIEWS: [MarketView, string][] = [
  ['projects', 'Проекты'],
  ['developers', 'Застройщики'],
  ['places', 'По месту'],
  ['below', 'Ниже аналогов'],
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
  // the registry's «Надёжность сроков» beside the developers (asked only for that table)
  const reliability = useReliability(f.view === 'developers').data;
  const columns = marketColumns(
    f.view,
    f.groupBy,
    {
      to: f.to,
      picked,
      toggle,
      name: (r) =>
        f.view === 'projects' ? (
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
              f.view === 'developers' ? update({ developerId: r.id, view: 'projects' }) : openPlace(r)
            }
          >
            {r.name}
          </button>
        ),
    },
    reliability,
  );
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
        {f.view !== 'below' && (
          <ExportButtons
            fileName={
              f.view === 'places' ? `${fileBase} ${PLACE_GROUP_LABELS[f.groupBy].toLowerCase()}` : fileBase
            }
            disabled={rows.length === 0}
            sheet={() => marketSheet(rows, f.view, f.groupBy, reliability)}
            testId="market-export"
          />
        )}
      </div>
      {f.view === 'below' ? (
        <MarketBelow
          fileBase={fileBase}
          filters={{
            developerId: f.developerId ?? undefined,
            region: f.region ?? undefined,
            city: f.city ?? undefined,
            district: f.district ?? undefined,
            station: f.station ?? undefined,
            priceClass: f.priceClass ?? undefined,
          }}
        />
      ) : (
        <DataState
          loading={loading}
          error={error}
          empty={rows.length === 0}
          emptyText="За этот период данных нет. Измените даты или фильтры."
        >
          <ColumnTable
            columns={columns}
            rows={current.rows}
            rowKey={(r) => r.id}
            testId="market-table"
            rowTestId="market-row"
            sort={f.sort}
            onSort={(key) =>
              update({
                sort: {
                  key: key as MarketSortKey,
                  dir: f.sort.key === key && f.sort.dir === 'desc' ? 'asc' : 'desc',
                },
              })
            }
            onSortSelect={(next) => next && update({ sort: next as MarketFilters['sort'] })}
            sortSelectId="market-sort"
          />
          {current.pages > 1 && (
            <Pager page={current.page} pages={current.pages} onPage={setPage} testId="market-pager" />
          )}
        </DataState>
      )}
    </Card>
  );
}
