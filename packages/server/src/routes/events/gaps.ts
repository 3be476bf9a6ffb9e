import type { EventKind } from '@cena-metra/contract';

/**
 * SQL for the days between a project's snapshot on `day` and its previous snapshot (DESIGN §10.1), null
 * on its first: the `gapDays` of a summary line and of each event that day.
 */
export function gapDaysSql(projectId: string, day: string): string {
  return `(${day} - (select max(g.date) from snapshot g where g.project_id = ${projectId} and g.date < ${day}))`;
}

/** A snapshot after a gap without data: more than C days after the previous one. */
export function isGap(gapDays: number | null, carry: number): boolean {
  return gapDays !== null && gapDays > carry;
}

/** A price event seen across such a gap: its change accumulated while nobody looked (`afterGap`). */
export function isPriceEventAfterGap(kind: EventKind, gapDays: number | null, carry: number): boolean {
  return (kind === 'PRICE_UP' || kind === 'PRICE_DOWN') && isGap(gapDays, carry);
}
