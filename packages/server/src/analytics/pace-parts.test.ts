import { describe, expect, it } from 'vitest';
import { toDay } from '../lib/days.js';
import { joinSummaries, partOf, splitSummary } from './pace-parts.js';
import type { PaceSummary } from './pace-summary.js';

/** A summary over weekly snapshots from 2024-12-01 to 2026-01-25 (three years' parts). */
function summary(): PaceSummary {
  const first = toDay('2024-12-01');
  const dates = Array.from({ length: 61 }, (_, k) => first + 7 * k);
  const at = (k: number) => k * 10 + 1;
  return {
    dates,
    ends: dates.map((d) => d + 6),
    stock: dates.map((_, k) => at(k)),
    priceSum: dates.map((_, k) => at(k) * 1e6),
    areaSum: dates.map((_, k) => at(k) * 50.5),
    fresh: dates.map((_, k) => k % 3),
    lnSum: dates.map((_, k) => k / 100),
    pairs: dates.map((_, k) => k),
    firstDelta: dates.map((d, k) => (k % 2 ? [d, 1] : [])),
    removals: [3, 4, 4, 30, 58].map((k, i) => ({ k, flatId: i, first: dates[0], back: [dates[k] + 7] })),
  };
}

describe('pace summaries kept in parts of a year', () => {
  it('split into years and joined back, give the summary', () => {
    const s = summary();
    const parts = splitSummary(s);
    expect(parts.map((p) => p.part)).toEqual([toDay('2024-01-01'), toDay('2025-01-01'), toDay('2026-01-01')]);
    expect(parts.map((p) => p.summary.dates.length)).toEqual([5, 52, 4]);
    expect(parts.map((p) => p.summary.removals.map((r) => r.k))).toEqual([[3, 4, 4], [30], [58]]);
    expect(joinSummaries(parts.map((p) => p.summary))).toEqual(s);
    expect(partOf(toDay('2025-12-31'))).toBe(toDay('2025-01-01'));
  });

  it('from a part on: the parts after it, and placeholders for the snapshots before it', () => {
    const s = summary();
    const from = s.dates.findIndex((d) => d >= toDay('2025-01-01'));
    const tail = splitSummary(s, from);
    expect(tail.map((p) => p.part)).toEqual([toDay('2025-01-01'), toDay('2026-01-01')]);
    const joined = joinSummaries(
      tail.map((p) => p.summary),
      s.dates.slice(0, from),
    );
    expect(joined.dates).toEqual(s.dates);
    expect(joined.stock.slice(from)).toEqual(s.stock.slice(from));
    expect(joined.stock.slice(0, from)).toEqual([0, 0, 0, 0, 0]);
    expect(joined.firstDelta.slice(0, from)).toEqual([[], [], [], [], []]);
    expect(joined.removals.map((r) => r.k)).toEqual([30, 58]);
    // split again from there, the placeholders are left out
    expect(splitSummary(joined, from)).toEqual(tail);
  });
});
