import type { RoomGroup } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paceSummary } from '../src/analytics/pace-summary.js';
import { unionIndex } from '../src/analytics/pace-union.js';
import { GROUP_FILTERS } from '../src/analytics/stats.js';
import type { FlatRecord, Segment } from '../src/analytics/types.js';
import { toDay } from '../src/lib/days.js';

const rec = (price: number, area = 40, rooms = 1): FlatRecord => ({
  building: '1',
  section: null,
  floor: 1,
  number: null,
  rooms,
  area,
  facing: 'UNKNOWN',
  settlementDate: null,
  price,
  basePrice: null,
  status: null,
  offer: null,
});
/** A flat listed at each snapshot with the given prices (null: not active there), as segments. */
function flat(flatId: number, dates: number[], prices: (number | null)[], area = 40, rooms = 1): Segment[] {
  const out: Segment[] = [];
  prices.forEach((p, k) => {
    if (p === null) return;
    const end = k + 1 < dates.length ? dates[k + 1] - 1 : null;
    out.push({ flatId, startDay: dates[k], endDay: end, rec: rec(p, area, rooms) });
  });
  return out;
}
const d = (iso: string) => toDay(iso);
/** The index as POST /api/project/index reads it: the summary of the rooms group, whatever the status. */
function priceIndexSeries(
  flats: Segment[][],
  dates: number[],
  from: number,
  to: number,
  carry: number,
  group: RoomGroup = 'all',
) {
  const summary = paceSummary(flats, new Map(), new Map(), dates, carry, (r) =>
    GROUP_FILTERS[group](r.rooms),
  );
  return unionIndex([summary], from, to);
}

describe('§10.6 the same-flat price index', () => {
  const dates = ['2026-01-01', '2026-01-02', '2026-01-03'].map(d);

  it('100 on the first day; the geometric mean of same flats’ price ratios after; the mix does not move it', () => {
    const flats = [
      flat(1, dates, [100, 110, 121]),
      flat(2, dates, [200, 220, null]),
      // a dear flat that comes on sale moves the average, not the index
      flat(3, dates, [null, null, 10_000]),
    ];
    const series = priceIndexSeries(flats, dates, dates[0], dates[2], 31);
    expect(series).toEqual([
      { date: '2026-01-01', index: 100 },
      { date: '2026-01-02', index: 110 },
      { date: '2026-01-03', index: 121 },
    ]);
  });

  it('a flat whose area changed is not compared; no comparable flat: the index holds; days carry', () => {
    const dates2 = ['2026-01-01', '2026-01-04'].map(d);
    const flats = [
      flat(1, dates2, [100, 150]).map((s, i) => (i ? { ...s, rec: { ...s.rec, area: 41 } } : s)),
    ];
    expect(priceIndexSeries(flats, dates2, dates2[0], dates2[1], 31).map((p) => p.index)).toEqual([
      100, 100, 100, 100,
    ]);
  });

  it('starts at 100 on the first day of the range, wherever it falls; only the rooms group counts', () => {
    const flats = [flat(1, dates, [100, 110, 121]), flat(2, dates, [100, 50, 25], 60, 2)];
    expect(priceIndexSeries(flats, dates, dates[1], dates[2], 31, 'one')).toEqual([
      { date: '2026-01-02', index: 100 },
      { date: '2026-01-03', index: 110 },
    ]);
  });

  it('property: prices that never change give 100 everywhere; a uniform +x % per list gives (1 + x)^n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 12, maxLength: 12 }),
        (n, flatsCount, x, gaps) => {
          const days: number[] = [];
          let day = d('2025-01-01');
          for (let k = 0; k < n; k++) {
            days.push(day);
            day += gaps[k];
          }
          const still = Array.from({ length: flatsCount }, (_, i) =>
            flat(
              i + 1,
              days,
              days.map(() => 1e6 + i),
            ),
          );
          for (const p of priceIndexSeries(still, days, days[0], days[n - 1], 10_000))
            expect(p.index).toBe(100);
          const rising = Array.from({ length: flatsCount }, (_, i) =>
            flat(
              i + 1,
              days,
              days.map((_, k) => (1e6 + i * 1000) * (1 + x) ** k),
            ),
          );
          const series = priceIndexSeries(rising, days, days[0], days[n - 1], 10_000);
          const lastDay = series[series.length - 1];
          expect(lastDay.index).toBeCloseTo(Math.round(100 * (1 + x) ** (n - 1) * 100) / 100, 1);
        },
      ),
      { numRuns: 200, seed: 106 },
    );
  });
});
