import { carries, gapBetween } from './carry.js';
import { median } from './median.js';
/** A snapshot's day and how many flats it lists. */
export interface SnapshotSize {
  day: number;
  flats: number;
  /** imported as whole (`--complete`): never partial, though it still counts for the ones after it */
  complete?: boolean;
}

/** A span without data between two snapshots (DESIGN §10.1): the snapshots around it and its length. */
export interface DataGap {
  after: number;
  before: number;
  /** days between the two snapshots */
  days: number;
}

/** Gaps: consecutive snapshots more than C days apart (the days past the carried C have no data). */
export function dataGaps(days: number[], carry: number): DataGap[] {
  const out: DataGap[] = [];
  for (let k = 1; k < days.length; k++)
    if (gapBetween(days[k - 1], days[k], carry))
      out.push({ after: days[k - 1], before: days[k], days: days[k] - days[k - 1] });
  return out;
}

/** The number of earlier snapshots §10.4 looks at, and how many it needs. */
const PARTIAL_WINDOW = 10;
const PARTIAL_MIN = 3;

/**
 * Partial scans (DESIGN §10.4): a snapshot with fewer flats than half the median count of the project's
 * previous snapshots taken within C days before it (the last 10 of them; fewer than 3 → never partial).
 * A snapshot imported as complete (a real sell-out) is never partial.
 * `sizes` sorted by day; returns each partial snapshot with the median it fell short of.
 */
export function partialScans(sizes: SnapshotSize[], carry: number): (SnapshotSize & { median: number })[] {
  const out: (SnapshotSize & { median: number })[] = [];
  for (let k = 0; k < sizes.length; k++) {
    if (sizes[k].complete) continue;
    const before: number[] = [];
    for (let j = k - 1; j >= 0 && before.length < PARTIAL_WINDOW; j--) {
      if (!carries(sizes[j].day, sizes[k].day, carry)) break;
      before.push(sizes[j].flats);
    }
    if (before.length < PARTIAL_MIN) continue;
    const m = median(before)!;
    if (sizes[k].flats < m / 2) out.push({ ...sizes[k], median: m });
  }
  return out;
}
