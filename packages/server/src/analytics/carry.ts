import type { EventKind } from '@cena-metra/contract';

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

/**
 * A snapshot after a gap (§10.1 `afterGap`): more than C days after the previous one, as DESIGN words it —
 * one day looser than `gapBetween`, which asks whether any day between them has no data.
 */
export function isGap(gapDays: number | null, carry: number): boolean {
  return gapDays !== null && gapDays > carry;
}

/** A price event seen across such a gap: its change accumulated while nobody looked (`afterGap`). */
export function isPriceEventAfterGap(kind: EventKind, gapDays: number | null, carry: number): boolean {
  return (kind === 'PRICE_UP' || kind === 'PRICE_DOWN') && isGap(gapDays, carry);
}
