import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Buckets, DayCounts, dayEvents, EventGrid } from './day-buckets.js';

/** The median of a multiset given as day → count, by sorting it out: what DayCounts must say. */
function sortedMedian(counts: Map<number, number>): number | null {
  const all = [...counts].flatMap(([day, count]) => Array<number>(count).fill(day)).sort((a, b) => a - b);
  if (all.length === 0) return null;
  const half = all.length >> 1;
  return all.length % 2 ? all[half] : (all[half - 1] + all[half]) / 2;
}

describe('DayCounts, the multiset the union sweep reads medians of', () => {
  it('says the median of what was added and taken out, however far it moves between reads', () => {
    const step = fc.record({
      day: fc.integer({ min: 100, max: 160 }),
      count: fc.integer({ min: 1, max: 4 }),
      out: fc.boolean(),
      read: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const counts = new DayCounts(100, 61);
        const held = new Map<number, number>();
        for (const s of steps) {
          // taking out only what is there: a multiset's count never goes below zero between reads
          const count = s.out ? -Math.min(s.count, held.get(s.day) ?? 0) : s.count;
          counts.add(s.day, count);
          held.set(s.day, (held.get(s.day) ?? 0) + count);
          if (s.read) expect(counts.median()).toBe(sortedMedian(held));
        }
        expect(counts.median()).toBe(sortedMedian(held));
        expect(counts.total).toBe([...held.values()].reduce((a, b) => a + b, 0));
      }),
      { numRuns: 500, seed: 20261127 },
    );
  });
});

describe('the medians’ events, kept as they came or added up by day and value', () => {
  it('give the multiset the same counts on every day, whichever way they are kept', () => {
    const event = fc.record({
      day: fc.integer({ min: 95, max: 135 }),
      value: fc.integer({ min: 0, max: 19 }),
      count: fc.integer({ min: -3, max: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 300 }),
        fc.array(fc.boolean(), { minLength: 31, maxLength: 31 }),
        (events, held) => {
          const grid = new EventGrid(100, 31, 40, 20);
          const buckets = new Buckets(100, 31);
          // events out of the days are dropped by both
          for (const e of events) {
            grid.add(e.day, 40 + e.value, e.count);
            buckets.add(e.day, 40 + e.value, e.count);
          }
          grid.sort();
          buckets.sort();
          const a = new DayCounts(40, 20);
          const b = new DayCounts(40, 20);
          const seen = new Map<number, number>();
          for (let i = 0; i < 31; i++) {
            // a day's events applied, or taken out again as the sweep takes out the lots held back
            const sign = held[i] ? -1 : 1;
            grid.apply(i, a, sign);
            buckets.apply(i, b, sign);
            for (const e of events)
              if (e.day === 100 + i) seen.set(e.value, (seen.get(e.value) ?? 0) + sign * e.count);
            expect(a.total).toBe(b.total);
            expect(a.total).toBe([...seen.values()].reduce((x, y) => x + y, 0));
            if (a.total > 0 && [...seen.values()].every((c) => c >= 0)) expect(a.median()).toBe(b.median());
          }
        },
      ),
      { numRuns: 300, seed: 20261207 },
    );
  });

  it('are added up in a table when that is smaller than the events, kept as they came otherwise', () => {
    expect(dayEvents(0, 366, 0, 366, 18_000_000)).toBeInstanceOf(EventGrid);
    expect(dayEvents(0, 366, 0, 366, 3_650)).toBeInstanceOf(Buckets);
  });
});
