import type { BelowComparablesRequest } from '@cena-metra/contract';
import { useEffect, useState } from 'react';
import { ColumnTable } from '../../components/column-table';
import { ExportButtons } from '../../components/export-buttons';
import { Pager } from '../../components/pager';
import { DataState } from '../../components/states';
import { Select } from '../../components/ui';
import { pageOf } from '../../lib/paging';
import { useBelowComparables } from './api';
import { BELOW_COLUMNS, belowSheet } from './lib/below-columns';

const THRESHOLDS = [5, 10, 15, 20, 30];

/**
 * «Ниже аналогов» (DESIGN §12.4): the selection's flats on sale priced at least X % below what the hedonic
 * model says their peers would cost, the cheapest against it first; exported to Excel as shown.
 */
export function MarketBelow({
  filters,
  fileBase,
}: {
  filters: Omit<BelowComparablesRequest, 'threshold' | 'limit'> | null;
  fileBase: string;
}) {
  const [threshold, setThreshold] = useState(10);
  const below = useBelowComparables(filters && { ...filters, threshold, limit: 500 });
  const rows = below.data?.rows ?? [];
  // a hundred rows at a time
  const [page, setPage] = useState(1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another answer starts on page 1
  useEffect(() => setPage(1), [below.data]);
  const current = pageOf(rows, page);
  return (
    <div data-testid="market-below">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div className="w-56">
          <Select
            label="Дешевле справедливой цены на"
            testId="below-threshold"
            value={String(threshold)}
            options={THRESHOLDS.map((t) => ({ value: String(t), label: `${t} % и больше` }))}
            onChange={(v) => setThreshold(Number(v))}
          />
        </div>
        <ExportButtons
          fileName={`${fileBase} ниже аналогов`}
          disabled={rows.length === 0}
          sheet={() => belowSheet(rows)}
          testId="below-export"
        />
      </div>
      {below.data && (
        <p className="mb-3 text-sm" data-testid="below-summary">
          {below.data.total} из {below.data.priced} квартир в продаже дешевле справедливой цены на {threshold}{' '}
          % и больше{below.data.total > rows.length ? `; показаны ${rows.length} самых дешёвых` : ''}.
        </p>
      )}
      <DataState
        loading={below.isLoading}
        error={below.error}
        empty={rows.length === 0}
        emptyText="Таких квартир нет: уменьшите порог или измените фильтры."
      >
        <ColumnTable
          columns={BELOW_COLUMNS}
          rows={current.rows}
          rowKey={(r) => r.flatId}
          testId="below-table"
        />
        {current.pages > 1 && (
          <Pager page={current.page} pages={current.pages} onPage={setPage} testId="below-pager" />
        )}
      </DataState>
    </div>
  );
}
