import { describe, expect, it } from 'vitest';
import { pageButtons, pageOf } from './paging';

describe('paging', () => {
  it('cuts rows into pages of 100, the page kept within them', () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    expect(pageOf(rows, 1)).toMatchObject({ page: 1, pages: 3 });
    expect(pageOf(rows, 3).rows).toEqual(rows.slice(200));
    expect(pageOf(rows, 9).page).toBe(3);
    expect(pageOf([], 2)).toEqual({ rows: [], page: 1, pages: 1 });
  });

  it('shows every page up to 9, else the ends and the current one\u2019s neighbours with gaps', () => {
    expect(pageButtons(1, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageButtons(1, 50)).toEqual([1, 2, 3, null, 50]);
    expect(pageButtons(25, 50)).toEqual([1, null, 23, 24, 25, 26, 27, null, 50]);
    expect(pageButtons(50, 50)).toEqual([1, null, 48, 49, 50]);
    expect(pageButtons(4, 50)).toEqual([1, 2, 3, 4, 5, 6, null, 50]);
  });
});
