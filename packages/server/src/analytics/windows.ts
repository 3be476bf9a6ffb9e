import { minusMonths } from '../lib/days.js';
import { lastCarriedDay } from './carry.js';
import type { FlatOnDay } from './stats.js';
import type { Segment } from './types.js';

/**
 * Day A of a summary table or a discount list asked for `to` (§4.2, §10.1): the latest day ≤ `to` that has
 * data — `to` itself within C days after its snapshot, else the snapshot's last carried day, and never
 * after the last snapshot; null before the first snapshot.
 */
export function lastDataDay(dates: number[], to: number, carry: number): number | null {
  let k = -1;
  for (let lo = 0, hi = dates.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (dates[mid] <= to) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (k < 0) return null;
  return Math.min(to, lastCarriedDay(dates[k], k === dates.length - 1 ? null : dates[k + 1], carry));
}

/** Start days of the four discount windows ending on A: 1 day, 7 days, 1 calendar month, 1 calendar year. */
export function windowStarts(a: number): [number, number, number, number] {
  return [a - 1, a - 7, minusMonths(a, 1), minusMonths(a, 12)];
}

/**
 * The flat's state on day A and its highest prices while active in each window, from its segments,
 * or null when it is not active on A. `lastDay` is the project's last data day (open segments end there).
 */
export function flatOnDay(segments: Segment[], a: number, lastDay: number): FlatOnDay | null {
  let current: Segment | null = null;
  for (const s of segments) {
    if (s.startDay <= a && (s.endDay ?? lastDay) >= a) {
      current = s;
      break;
    }
  }
  if (!current) return null;
  const starts = windowStarts(a);
  const refs = [0, 0, 0, 0];
  for (const s of segments) {
    if (s.startDay > a) continue;
    const end = s.endDay ?? lastDay;
    for (let i = 0; i < 4; i++) if (end >= starts[i] && s.rec.price > refs[i]) refs[i] = s.rec.price;
  }
  return {
    flatId: current.flatId,
    rec: current.rec,
    refDay: refs[0],
    ref7Days: refs[1],
    ref1Month: refs[2],
    ref1Year: refs[3],
  };
}
