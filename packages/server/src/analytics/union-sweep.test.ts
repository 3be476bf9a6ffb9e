import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DayCounts } from './day-buckets.js';

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
