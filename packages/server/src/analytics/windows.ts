import { minusMonths } from '../lib/days.js';
import type { FlatOnDay } from './stats.js';
import type { Segment } from './types.js';

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
