import { mdiArrowDown, mdiArrowUp } from '@mdi/js';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { Icon } from './icon';
import { Select } from './ui';

/** Copies each header cell's label onto the body cells of its column (`data-label`). */
export function labelCells(table: HTMLTableElement): void {
  const heads = Array.from(table.tHead?.rows[0]?.cells ?? [], (th) =>
    (th.dataset.label ?? th.textContent ?? '').trim(),
  );
  for (const body of Array.from(table.tBodies))
    for (const row of Array.from(body.rows))
      for (const [i, cell] of Array.from(row.cells).entries()) {
        const label = heads[i] ?? '';
        if (cell.dataset.label !== label) cell.dataset.label = label;
      }
}

/**
 * A table in the template's responsive form (the `.data-table` styles): a striped table from lg, a
 * stack of cards below it with each value after its column's label. The labels are read from the
 * header, so every table writes them once; rows added later (paging, sorting) are labelled too.
 */
export function DataTable({ children, testId }: { children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table);
    const observer = new MutationObserver(() => labelCells(table));
    observer.observe(table, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return (
    <table ref={ref} className="data-table" data-testid={testId}>
      {children}
    </table>
  );
}

/** `key` for ascending, `-key` for descending (the form of the API's `sort`). */
export function sortValue(key: string, dir: 'asc' | 'desc'): string {
  return dir === 'desc' ? `-${key}` : key;
}

export function parseSortValue<K extends string>(value: string): { key: K; dir: 'asc' | 'desc' } {
  return value.startsWith('-') ? { key: value.slice(1) as K, dir: 'desc' } : { key: value as K, dir: 'asc' };
}

/**
 * Sorting for phones: below lg the header (and its sort buttons) is hidden, so a select offers each
 * sortable column in both directions. `value` is a {@link sortValue}; '' is the unsorted order when
 * `unsorted` names it.
 */
export function SortSelect({
  columns,
  value,
  onChange,
  unsorted,
  testId,
}: {
  columns: { key: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  unsorted?: string;
  testId: string;
}) {
  const options = [
    ...(unsorted ? [{ value: '', label: unsorted }] : []),
    ...columns.flatMap((c) => [
      { value: sortValue(c.key, 'asc'), label: `${c.label} ↑` },
      { value: sortValue(c.key, 'desc'), label: `${c.label} ↓` },
    ]),
  ];
  return (
    <div className="mb-4 lg:hidden">
      <Select label="Сортировка" value={value} onChange={onChange} options={options} testId={testId} />
    </div>
  );
}

/** A sortable column's header button: its label, and an arrow when the table is sorted by it. */
export function SortButton({
  label,
  sorted,
  onClick,
}: {
  label: string;
  /** the direction when the table is sorted by this column */
  sorted: 'asc' | 'desc' | null;
  onClick: () => void;
}) {
  return (
    <button type="button" className="inline-flex items-center gap-1 hover:text-blue-600" onClick={onClick}>
      {label}
      {sorted && <Icon path={sorted === 'desc' ? mdiArrowDown : mdiArrowUp} size={14} />}
    </button>
  );
}
