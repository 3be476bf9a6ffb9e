import { formatDecimal2, type Sheet, type SheetCellType, type SheetColumn } from '@cena-metra/contract';
import type { ReactNode } from 'react';

/**
 * A table's column, written once (DESIGN §12.2): what a cell shows, how the column sorts, and how CSV and
 * Excel export it all come from here, so the page, its order and its files never disagree.
 */
export interface Column<R> {
  key: string;
  label: string;
  /** how the value is exported (and shown, unless `text` or `cell` says otherwise) */
  type: SheetCellType;
  /** the value exported: a number for numbers, `YYYY-MM-DD` for dates, text; null when empty */
  value: (row: R) => string | number | null;
  /** the text shown (default: the value in Russian form, «—» when empty) */
  text?: (row: R) => string;
  /** the cell shown when it is more than text: a link, a badge, a button */
  cell?: (row: R) => ReactNode;
  /** what the column sorts by (default: the value); no sort when `sortable` is false */
  sort?: (row: R) => string | number | null;
  sortable?: boolean;
  /** the cell's classes (a change's colour) */
  className?: (row: R) => string | undefined;
  /** numbers: right-aligned from lg (default for integer and decimal columns) */
  numeric?: boolean;
  /** false: shown, not exported (a checkbox, an action) */
  exported?: boolean;
  /** false: exported, not shown (a long address, coordinates) */
  shown?: boolean;
  /** the export's header when it differs from the label (units the table shows elsewhere) */
  header?: string;
  /** Excel's width in characters */
  width?: number;
}

export type SortDir = 'asc' | 'desc';
export interface ColumnSort {
  key: string;
  dir: SortDir;
}

const DASH = '—';
const ruDate = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00`).toLocaleDateString('ru-RU');

/** The text a column shows for a row: its own, else its value in Russian form («—» when empty). */
export function cellText<R>(c: Column<R>, row: R): string {
  if (c.text) return c.text(row);
  const v = c.value(row);
  if (v === null || v === '') return DASH;
  if (typeof v === 'number') return c.type === 'decimal' ? formatDecimal2(v) : v.toLocaleString('ru-RU');
  return c.type === 'date' ? ruDate(v) : v;
}

export const isNumeric = <R>(c: Column<R>) => c.numeric ?? (c.type === 'integer' || c.type === 'decimal');
export const shownColumns = <R>(columns: Column<R>[]) => columns.filter((c) => c.shown !== false);
export const sortableColumns = <R>(columns: Column<R>[]) =>
  shownColumns(columns).filter((c) => c.sortable !== false);

const collator = new Intl.Collator('ru', { numeric: true });

/**
 * Rows sorted by a value (empty values last whichever the direction; numbers as numbers, text in natural
 * Russian order), ties by `tie` or as given.
 */
export function sortByValue<R>(
  rows: R[],
  of: (row: R) => string | number | null,
  dir: SortDir,
  tie: (a: R, b: R) => number = () => 0,
): R[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = of(a) ?? null;
    const y = of(b) ?? null;
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c =
        typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      if (c !== 0) return c * sign;
    }
    return tie(a, b);
  });
}

/** Rows sorted by a column (empty values last whichever the direction); as given when no sort is set. */
export function sortRowsBy<R>(rows: R[], columns: Column<R>[], sort: ColumnSort | null): R[] {
  const c = sort && columns.find((x) => x.key === sort.key);
  if (!sort || !c) return rows;
  return sortByValue(rows, c.sort ?? c.value, sort.dir);
}

/** Ties by a name, in natural Russian order. */
export const byName =
  <R>(name: (row: R) => string) =>
  (a: R, b: R) =>
    collator.compare(name(a), name(b));

/** The next sort when a column's header is clicked: ascending, descending, then as given (`cycle`). */
export function nextSort(
  sort: ColumnSort | null,
  key: string,
  first: SortDir = 'asc',
  cycle = true,
): ColumnSort | null {
  if (sort?.key !== key) return { key, dir: first };
  if (sort.dir === first) return { key, dir: first === 'asc' ? 'desc' : 'asc' };
  return cycle ? null : { key, dir: first };
}

/** The table as exported (CSV and Excel): the exported columns, their headers and types, the rows given. */
export function sheetOf<R>(name: string, columns: Column<R>[], rows: R[]): Sheet<R> {
  return {
    name,
    rows,
    columns: columns
      .filter((c) => c.exported !== false)
      .map(
        (c): SheetColumn<R> => ({
          header: c.header ?? c.label,
          type: c.type,
          value: c.value,
          ...(c.width && { width: c.width }),
        }),
      ),
  };
}

/** A column of numbers: `format` shows a value (Russian form by default), «—» when there is none. */
export function numberColumn<R>(
  key: string,
  label: string,
  type: 'integer' | 'decimal',
  value: (row: R) => number | null,
  format?: (v: number) => string,
  more: Partial<Column<R>> = {},
): Column<R> {
  const column: Column<R> = { key, label, type, value, ...more };
  if (format) column.text = (row) => (value(row) === null ? DASH : format(value(row)!));
  return column;
}

/** A row's actions (buttons, a checkbox): shown at the row's end, never sorted or exported. */
export function actionsColumn<R>(cell: (row: R) => ReactNode, label = ''): Column<R> {
  return {
    key: 'actions',
    label,
    type: 'text',
    value: () => null,
    cell,
    exported: false,
    sortable: false,
    numeric: true,
    className: () => 'whitespace-nowrap',
  };
}
