import { type ReactNode, useLayoutEffect, useRef } from 'react';

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
