import type { PaceRowsRequest, ShortFlatSummary } from '@cena-metra/contract';
import { useMemo, useState } from 'react';
import { ColumnTable } from '../../../components/column-table';
import { ExportButtons } from '../../../components/export-buttons';
import { Pager } from '../../../components/pager';
import { nextSort } from '../../../lib/columns';
import { useSeen } from '../../../lib/in-view';
import { usePaceRows } from '../api';
import {
  pageOf,
  type SortState,
  SUMMARY_COLUMNS,
  sortRows,
  summarySheet,
  withPace,
} from '../lib/summary-table';

/**
 * The summary table (the spec's 12 columns and the rows' sales pace): sortable, paged by 100 («Страница X
 * из Y»), CSV and Excel export; cards below lg.
 */
export function SummaryTable({
  summary,
  paceRequest,
  fileName,
}: {
  summary: ShortFlatSummary[];
  /** the rows' pace (§10.5), asked when the table comes into view (DESIGN §12.2) */
  paceRequest: PaceRowsRequest | null;
  fileName: string;
}) {
  const [ref, seen] = useSeen();
  const paceRows = usePaceRows(seen ? paceRequest : null);
  const rows = useMemo(() => withPace(summary, paceRows.data?.rows), [summary, paceRows.data]);
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const current = pageOf(sorted, page);
  const order = (next: SortState | null) => {
    setSort(next);
    setPage(1);
  };
  return (
    <div ref={ref} className="rounded-2xl bg-white dark:bg-slate-900/70" data-testid="summary-table">
      <div className="flex items-center justify-between gap-3 p-4">
        <h2 className="font-semibold text-lg">Сводка по корпусам</h2>
        <ExportButtons fileName={fileName} sheet={() => summarySheet(sorted)} testId="summary-export" />
      </div>
      <div className="px-4 lg:px-0">
        <ColumnTable
          columns={SUMMARY_COLUMNS}
          rows={current.rows}
          rowKey={(r) => r.id}
          sort={sort}
          onSort={(key) => order(nextSort(sort, key))}
          onSortSelect={order}
          sortSelectId="summary-sort"
          unsorted="Как в прайс-листе"
        />
      </div>
      <Pager page={current.page} pages={current.pages} onPage={setPage} />
    </div>
  );
}
