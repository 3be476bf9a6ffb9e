import { describe, expect, it } from 'vitest';
import { dataGaps, partialScans } from './quality.js';

describe('data quality rules', () => {
  it.each([
    [[1, 2, 3], 31, []],
    [[1, 33, 34], 31, []],
    [[1, 34, 35], 31, [{ after: 1, before: 34, days: 33 }]],
    [
      [10, 917, 1068],
      31,
      [
        { after: 10, before: 917, days: 907 },
        { after: 917, before: 1068, days: 151 },
      ],
    ],
  ])('gaps of %j with C = %i', (days, carry, gaps) => expect(dataGaps(days, carry)).toEqual(gaps));

  const sizes = (counts: number[], step = 1) => counts.map((flats, i) => ({ day: 100 + i * step, flats }));
  it.each([
    ['half the median is not partial', [100, 100, 100, 50], []],
    ['under half is partial', [100, 100, 100, 49], [{ day: 103, flats: 49, median: 100 }]],
    ['fewer than three earlier snapshots: never', [100, 100, 10], []],
    [
      'the median of the last ten, not all',
      [10, 10, 10, 10, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 40],
      [{ day: 114, flats: 40, median: 100 }],
    ],
    [
      'a real sell-out after a long history is flagged too (the override is the user’s)',
      [100, 100, 100, 0],
      [{ day: 103, flats: 0, median: 100 }],
    ],
  ])('%s', (_name, counts, partial) => expect(partialScans(sizes(counts), 31)).toEqual(partial));

  it('only snapshots within C days before count', () => {
    // weekly lists, C = 14: two earlier lists are within reach, fewer than three → never partial
    expect(partialScans(sizes([100, 100, 100, 10], 7), 14)).toEqual([]);
    expect(partialScans(sizes([100, 100, 100, 10], 7), 31)).toEqual([{ day: 121, flats: 10, median: 100 }]);
  });
});
