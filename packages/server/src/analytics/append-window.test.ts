import { describe, expect, it } from 'vitest';
import { minusMonths, toDay } from '../lib/days.js';
import { appendWindow, type SnapshotDays } from './append-window.js';

/** Daily snapshots from 2026-01-01 with these flat counts; `partial` the stored flags. */
function days(counts: number[], partial: number[] = [], grace = 2, carry = 31): SnapshotDays {
  const first = toDay('2026-01-01');
  const dates = counts.map((_, i) => first + i);
  return {
    dates,
    sizes: new Map(dates.map((d, i) => [d, counts[i]])),
    completes: new Set(),
    partial: new Set(partial.map((i) => dates[i])),
    grace,
    carry,
  };
}

describe('the window of a plain append (DESIGN §11.1)', () => {
  const ten = days(Array(10).fill(100));
  const next = ten.dates[9] + 1;

  it('reads the grace snapshots before the new one, and the segments of the last year', () => {
    // grace 2: the recompute looks at flats with a row from the snapshot three before the new one on
    expect(appendWindow(ten, next, 100, false)).toEqual({
      recentFrom: ten.dates[7],
      segmentsFrom: minusMonths(next, 12),
    });
  });

  it('reaches back over a run of partial snapshots just before the new one', () => {
    const s = days([100, 100, 100, 100, 100, 100, 100, 100, 20, 20], [8, 9]);
    expect(appendWindow(s, next, 100, false)?.recentFrom).toBe(s.dates[5]);
  });

  it('is none for a first list, a back-fill, a replaced list or one after days without data', () => {
    expect(appendWindow(days([]), next, 100, false)).toBeNull();
    expect(appendWindow(ten, ten.dates[4], 100, false)).toBeNull();
    expect(appendWindow(ten, ten.dates[9], 100, false)).toBeNull();
    // C = 31: 33 days after the last snapshot leaves days without data
    expect(appendWindow(ten, ten.dates[9] + 33, 100, false)).toBeNull();
    expect(appendWindow(ten, ten.dates[9] + 32, 100, false)).not.toBeNull();
  });

  it('is none when its count moves an earlier snapshot’s partial flag, and is one when only its own is set', () => {
    // the stored flags say the last snapshot is partial, but the counts do not: the append would move it
    expect(appendWindow(days(Array(10).fill(100), [9]), next, 100, false)).toBeNull();
    // a partial list of its own (20 of a median 100) moves no other flag
    expect(appendWindow(ten, next, 20, false)).not.toBeNull();
  });
});
