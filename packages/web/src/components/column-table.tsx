import type { ReactNode } from 'react';
import {
  type Column,
  type ColumnSort,
  cellText,
  isNumeric,
  shownColumns,
  sortableColumns,
} from '../lib/columns';
import { DataTable, parseSortValue, SortButton, SortSelect, sortValue } from './data-table';

/**
 * Every table of the app (DESIGN §12.2): its columns' model gives the header, the cells, the sort (a
 * header button from lg, a select below it) and, through `sheetOf`, the CSV and Excel files. `sort` and
 * `onSort` are the caller's: it sorts the rows itself (`sortRowsBy`) or asks the server to.
 */
export function ColumnTable<R>({
  columns,
  rows,
  rowKey,
  testId,
  rowTestId,
  sort,
  onSort,
  onSortSelect,
  sortSelectId,
  unsorted,
  rowClassName,
  onRowClick,
  rowAttributes,
}: {
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string | number;
  testId?: string;
  rowTestId?: string;
  /** the order shown; absent: the table does not sort */
  sort?: ColumnSort | null;
  /** a header clicked */
  onSort?: (key: string) => void;
  /** the phones' select chose an order ('' = `unsorted`) */
  onSortSelect?: (sort: ColumnSort | null) => void;
  sortSelectId?: string;
  unsorted?: string;
  rowClassName?: (row: R) => string | undefined;
  /** a row chosen (the whole row is the target; its links keep theirs) */
  onRowClick?: (row: R) => void;
  /** a row's own `data-` attributes (its state, for styles and tests) */
  rowAttributes?: (row: R) => Record<`data-${string}`, string>;
}): ReactNode {
  const shown = shownColumns(columns);
  const sorts = onSort !== undefined;
  return (
    <>
      {sorts && sortSelectId && onSortSelect && (
        <SortSelect
          testId={sortSelectId}
          columns={sortableColumns(columns)}
          unsorted={unsorted}
          value={sort ? sortValue(sort.key, sort.dir) : ''}
          onChange={(v) => onSortSelect(v ? parseSortValue(v) : null)}
        />
      )}
      <div className="overflow-x-auto">
        <DataTable testId={testId}>
          <thead>
            <tr>
              {shown.map((c) => (
                <th key={c.key} data-label={c.label} className={isNumeric(c) ? 'lg:text-right' : undefined}>
                  {sorts && c.sortable !== false ? (
                    <SortButton
                      label={c.label}
                      sorted={sort?.key === c.key ? sort.dir : null}
                      onClick={() => onSort(c.key)}
                    />
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                data-testid={rowTestId}
                className={
                  [onRowClick && 'cursor-pointer', rowClassName?.(row)].filter(Boolean).join(' ') || undefined
                }
                onClick={onRowClick && (() => onRowClick(row))}
                {...rowAttributes?.(row)}
              >
                {shown.map((c) => (
                  <td
                    key={c.key}
                    className={
                      [isNumeric(c) && 'lg:text-right', c.className?.(row)].filter(Boolean).join(' ') ||
                      undefined
                    }
                  >
                    {c.cell ? c.cell(row) : cellText(c, row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
    </>
  );
}
