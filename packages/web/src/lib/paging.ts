/** Rows a table shows at once: a whole country's ranking is thousands, and a browser lays out every row. */
export const PAGE_SIZE = 100;

/** Page `page` (1-based) of the rows and the page count (at least 1). */
export function pageOf<T>(
  rows: T[],
  page: number,
  size = PAGE_SIZE,
): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((current - 1) * size, current * size), page: current, pages };
}

/**
 * The page buttons of a pager: every page up to 9, else the first, the last and the two either side of
 * the current one, a gap (null) where pages are left out.
 */
export function pageButtons(page: number, pages: number): (number | null)[] {
  if (pages <= 9) return Array.from({ length: pages }, (_, i) => i + 1);
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((p) => p >= 1 && p <= pages)
    .sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of shown) {
    if (out.length && p - (out.at(-1) as number) > 1) out.push(null);
    out.push(p);
  }
  return out;
}
