/**
 * The carry-forward limit C of DESIGN §10.1 in one place: a snapshot's state holds for at most C days
 * after it; a day further from its latest snapshot has no data, and consecutive snapshots further apart
 * than C + 1 days have days without data between them.
 */

/** Whether `day` has data from its latest snapshot `snapshotDay` (≤ day). */
export function carries(snapshotDay: number, day: number, carry: number): boolean {
  return day - snapshotDay <= carry;
}

/** Whether days without data lie between consecutive snapshots `prev` < `next`. */
export function gapBetween(prev: number, next: number, carry: number): boolean {
  return next - prev > carry + 1;
}

/** The last day of data after snapshot `day`, when the next snapshot is `next` (or none). */
export function lastCarriedDay(day: number, next: number | null, carry: number): number {
  return next === null ? day : Math.min(next - 1, day + carry);
}
