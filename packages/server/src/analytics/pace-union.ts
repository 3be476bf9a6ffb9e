import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import { drain, type Steps } from '../lib/steps.js';
import type { PacePoint, UnionPoint } from './pace-points.js';
import type { PaceSummary } from './pace-summary.js';
import type { PackedSummary } from './packed-summary.js';

/** A summary in either form: the sweep reads columns (a summary in the object form is packed first). */
type AnySummary = PaceSummary | PackedSummary;

import { unionDaySums, unionPace, unionPaceSteps } from './union-sweep.js';

export type { PacePoint, UnionPoint };
export { unionDaySums, unionPace };

/**
 * Reading pace summaries (pace-summary.ts) over any union of projects — one project is a union of one —
 * day by day: sales pace (§10.5), the same-flat index (§10.6) and the weighted average ppm.
 */

/** A project's sales pace (§10.5) from its summary for a filter: a union of one, without index and ppm. */
export function projectPace(summary: AnySummary, from: number, to: number): PacePoint[] {
  return unionPace([summary], from, to).map(({ index: _index, avgMeterPrice: _avg, ...point }) => point);
}

/**
 * A union's pace over its whole span (its first list to its last day with data), with each day's index
 * sums: any period of it is `periodOf` — the same points as `unionPace` over that period, to the bit. All
 * but the index are the same whatever the period (a day's windows and medians look back from the day, not
 * from the period's start); the index is chained again from 100 on the period's first day with data, with
 * the sums the sweep made, in the same order.
 */
export interface UnionSpan {
  points: UnionPoint[];
  days: number[];
  lnSums: number[];
  pairSums: number[];
}

export const unionSpan = (summaries: readonly AnySummary[]): UnionSpan => drain(unionSpanSteps(summaries));

/** `unionSpan` in steps (lib/steps.ts: a server sweeps the whole market in slices of its thread). */
export function* unionSpanSteps(summaries: readonly AnySummary[]): Steps<UnionSpan> {
  const used = summaries.filter((s) => s.dates.length > 0);
  const sums = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
  if (used.length === 0) return { points: [], ...sums };
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of used) {
    first = Math.min(first, s.dates[0]);
    last = Math.max(last, s.ends[s.ends.length - 1]);
  }
  const points = yield* unionPaceSteps(used, first, last, sums);
  return { points, ...sums };
}

/**
 * A union's span brought up to date after its members' summaries changed from day `since` on (nothing
 * before it moved): its points before the union's last day with data before `since` as they are, the rest
 * swept again from that day over the members' tails (pace-tail.ts: each must serve it), and the index
 * chained again over the whole span — the span `unionSpan` makes of the whole summaries, to the bit. Null
 * when the span has no day before `since`.
 */
export function* appendedSpanSteps(
  old: UnionSpan,
  since: number,
  tails: readonly AnySummary[],
): Steps<UnionSpan | null> {
  // the day the sweep starts on counts no index sums: it is taken from the span as it is
  const j0 = lowerBound(old.days, since) - 1;
  const used = tails.filter((s) => s.dates.length > 0);
  if (j0 < 0 || used.length === 0) return null;
  const start = old.days[j0];
  let last = Number.NEGATIVE_INFINITY;
  for (const s of used) last = Math.max(last, s.ends[s.ends.length - 1]);
  const sums = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
  const fresh = yield* unionPaceSteps(used, start, last, sums);
  if (sums.days[0] !== start) return null;
  const span: UnionSpan = {
    points: old.points.slice(0, j0).concat(fresh),
    days: old.days.slice(0, j0).concat(sums.days),
    lnSums: old.lnSums.slice(0, j0 + 1).concat(sums.lnSums.slice(1)),
    pairSums: old.pairSums.slice(0, j0 + 1).concat(sums.pairSums.slice(1)),
  };
  let index = 100;
  for (let j = 0; j < span.points.length; j++) {
    if (j > 0 && span.pairSums[j]) index *= Math.exp(span.lnSums[j] / span.pairSums[j]);
    span.points[j] = { ...span.points[j], index: Math.round(index * 100) / 100 };
  }
  return span;
}

/** The points of a union's span within [from, to], its index chained from 100 on the first (as unionPace). */
export function periodOf(span: UnionSpan, from: number, to: number): UnionPoint[] {
  const { points, days } = span;
  const start = lowerBound(days, from);
  const out: UnionPoint[] = [];
  let index = 100;
  for (let j = start; j < points.length && days[j] <= to; j++) {
    if (j > start && span.pairSums[j]) index *= Math.exp(span.lnSums[j] / span.pairSums[j]);
    out.push({ ...points[j], index: Math.round(index * 100) / 100 });
  }
  return out;
}

/**
 * The same-flat index alone of a union (as `unionPace` reads it): each day with data in [from, to], chained
 * from 100 on the first, without the windows and medians of pace.
 */
export function unionIndex(
  summaries: readonly AnySummary[],
  from: number,
  to: number,
): { date: string; index: number }[] {
  const used = summaries.filter((s) => s.dates.length > 0);
  if (used.length === 0) return [];
  // no project has data before its first list
  const sums = unionDaySums(used, Math.max(from, Math.min(...used.map((s) => s.dates[0]))), to);
  if (!sums) return [];
  let index = 100;
  return sums.days.map((day, j) => {
    if (j > 0 && sums.pairSums[j]) index *= Math.exp(sums.lnSums[j] / sums.pairSums[j]);
    return { date: fromDay(day), index: Math.round(index * 100) / 100 };
  });
}
