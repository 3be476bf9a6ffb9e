import { mdiArrowDown, mdiArrowUp } from '@mdi/js';
import { useMemo, useState } from 'react';
import { DataTable, parseSortValue, SortSelect, sortValue } from '../../../components/data-table';
import { ExportButtons } from '../../../components/export-buttons';
import { Icon } from '../../../components/icon';
import { Pager } from '../../../components/pager';
import {
  pageOf,
  type SortState,
  SUMMARY_COLUMNS,
  type SummaryKey,
  type SummaryRow,
  sortRows,
  summarySheet,
} from '../lib/summary-table';

/**
 * The summary table (the spec's 12 columns and the rows' sales pace): sortable, paged by 100 («Страница X
 * из Y»), CSV and Excel export; cards below lg.
 */
export function SummaryTable({ rows, fileName }: { rows: SummaryRow[]; fileName: string }) {
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const current = pageOf(sorted, page);
  const toggle = (key: SummaryKey) => {
    setSort((s) => (s?.key === key ? (s.dir === 'asc' ? { key, dir: 'desc' } : null) : { key, dir: 'asc' }));
    setPage(1);
  };
  return (
    <div className="rounded-2xl bg-white dark:bg-slate-900/70" data-testid="summary-table">
      <div className="flex items-center justify-between gap-3 p-4">
        <h2 className="font-semibold text-lg">Сводка по корпусам</h2>
        <ExportButtons fileName={fileName} sheet={() => summarySheet(sorted)} testId="summary-export" />
      </div>
      <div className="px-4">
        <SortSelect
          testId="summary-sort"
          columns={SUMMARY_COLUMNS}
          unsorted="Как в прайс-листе"
          value={sort ? sortValue(sort.key, sort.dir) : ''}
          onChange={(v) => {
            setSort(v ? parseSortValue<SummaryKey>(v) : null);
            setPage(1);
          }}
        />
      </div>
      <div className="overflow-x-auto">
        <DataTable>
          <thead>
            <tr>
              {SUMMARY_COLUMNS.map((c) => (
                <th key={c.key} data-label={c.label}>
                  <button
                    type="button"
                    onClick={() => toggle(c.key)}
                    className="inline-flex items-center gap-1 text-left hover:text-blue-600"
                  >
                    {c.label}
                    {sort?.key === c.key && (
                      <Icon path={sort.dir === 'asc' ? mdiArrowUp : mdiArrowDown} size={14} />
                    )}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {current.rows.map((row) => (
              <tr key={row.id}>
                {SUMMARY_COLUMNS.map((c) => (
                  <td key={c.key} className={c.numeric ? 'lg:text-right' : ''}>
                    {c.format(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
      <Pager page={current.page} pages={current.pages} onPage={setPage} />
    </div>
  );
}
