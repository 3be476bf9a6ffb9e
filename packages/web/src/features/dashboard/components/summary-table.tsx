import type { ShortFlatSummary } from '@cena-metra/contract';
import { mdiArrowDown, mdiArrowUp, mdiDownload } from '@mdi/js';
import { useMemo, useState } from 'react';
import { saveFile } from '../../../components/chart/export';
import { Icon } from '../../../components/icon';
import { Button } from '../../../components/ui';
import {
  pageOf,
  type SortState,
  SUMMARY_COLUMNS,
  type SummaryKey,
  sortRows,
  summaryCsv,
} from '../lib/summary-table';

/** The 12-column summary table: sortable, paged by 100 («Страница X из Y»), CSV export; cards below lg. */
export function SummaryTable({ rows, fileName }: { rows: ShortFlatSummary[]; fileName: string }) {
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
        <Button
          small
          icon={mdiDownload}
          onClick={() =>
            saveFile(`${fileName}.csv`, new Blob([summaryCsv(sorted)], { type: 'text/csv;charset=utf-8' }))
          }
        >
          CSV
        </Button>
      </div>
      <table className="w-full text-sm">
        <thead className="hidden lg:table-header-group">
          <tr>
            {SUMMARY_COLUMNS.map((c) => (
              <th
                key={c.key}
                className="border-gray-100 border-b px-3 py-2 text-left align-bottom font-semibold dark:border-slate-700"
              >
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
            <tr
              key={row.id}
              className="mb-4 block border-gray-100 border-b p-3 lg:mb-0 lg:table-row lg:p-0 lg:odd:bg-gray-50 lg:hover:bg-gray-100 dark:border-slate-800 lg:dark:odd:bg-slate-800/50 lg:dark:hover:bg-slate-800"
            >
              {SUMMARY_COLUMNS.map((c) => (
                <td
                  key={c.key}
                  data-label={c.label}
                  className={`flex justify-between gap-4 px-3 py-1 before:font-semibold before:content-[attr(data-label)] lg:table-cell lg:border-gray-100 lg:border-l lg:py-2 lg:before:content-none lg:first:border-l-0 dark:lg:border-slate-800 ${
                    c.numeric ? 'lg:text-right' : ''
                  }`}
                >
                  {c.format(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap items-center justify-between gap-3 p-4">
        <div className="flex flex-wrap gap-1">
          {Array.from({ length: current.pages }, (_, i) => i + 1).map((p) => (
            <Button
              key={p}
              small
              color={p === current.page ? 'info' : 'white'}
              onClick={() => setPage(p)}
              aria-current={p === current.page ? 'page' : undefined}
            >
              {p}
            </Button>
          ))}
        </div>
        <span className="text-gray-500 text-sm dark:text-slate-400">
          Страница {current.page} из {current.pages}
        </span>
      </div>
    </div>
  );
}
