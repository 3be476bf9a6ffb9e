import { lowerBound } from '../lib/sorted.js';
import type { PaceSummary } from './pace-summary.js';

/**
 * A project's pace summary kept in parts, a calendar year of its snapshots each (DESIGN §11.1: one new
 * day rewrites its year, not the project's history). A part holds its snapshots' entries and the removals
 * at them; a removal's snapshot index `k` stays the whole summary's.
 */

/** The part of a day: the first day of its year (days since 1970-01-01). */
export function partOf(day: number): number {
  return Date.UTC(new Date(day * 86_400_000).getUTCFullYear(), 0, 1) / 86_400_000;
}

/** The entries of snapshots [k0, k1) of a summary, without its removals (a part's, a tail's). */
export function snapshotsOf(s: PaceSummary, k0: number, k1 = s.dates.length): Omit<PaceSummary, 'removals'> {
  return {
    dates: s.dates.slice(k0, k1),
    ends: s.ends.slice(k0, k1),
    stock: s.stock.slice(k0, k1),
    priceSum: s.priceSum.slice(k0, k1),
    areaSum: s.areaSum.slice(k0, k1),
    fresh: s.fresh.slice(k0, k1),
    lnSum: s.lnSum.slice(k0, k1),
    pairs: s.pairs.slice(k0, k1),
    firstDelta: s.firstDelta.slice(k0, k1),
  };
}

/** The summary's parts from snapshot `fromK` on (the first snapshot of a part), in order. */
export function splitSummary(s: PaceSummary, fromK = 0): { part: number; summary: PaceSummary }[] {
  const out: { part: number; summary: PaceSummary }[] = [];
  let r = lowerBound(
    s.removals.map((x) => x.k),
    fromK,
  );
  for (let k0 = fromK; k0 < s.dates.length; ) {
    const part = partOf(s.dates[k0]);
    let k1 = k0;
    while (k1 < s.dates.length && partOf(s.dates[k1]) === part) k1++;
    const r0 = r;
    while (r < s.removals.length && s.removals[r].k < k1) r++;
    out.push({ part, summary: { ...snapshotsOf(s, k0, k1), removals: s.removals.slice(r0, r) } });
    k0 = k1;
  }
  return out;
}

/**
 * Parts in order joined into one summary. With `before` snapshot days, the parts start after them: their
 * entries are placeholders (zeros, no first presences, no removals) that a sweep starting at or after
 * the first part's snapshot copies and never reads, and that are never kept.
 */
export function joinSummaries(parts: PaceSummary[], before: number[] = []): PaceSummary {
  const zeros = before.map(() => 0);
  const join = (pick: (s: PaceSummary) => number[]) => zeros.concat(...parts.map(pick));
  return {
    dates: before.concat(...parts.map((p) => p.dates)),
    ends: join((p) => p.ends),
    stock: join((p) => p.stock),
    priceSum: join((p) => p.priceSum),
    areaSum: join((p) => p.areaSum),
    fresh: join((p) => p.fresh),
    lnSum: join((p) => p.lnSum),
    pairs: join((p) => p.pairs),
    firstDelta: before.map((): number[] => []).concat(...parts.map((p) => p.firstDelta)),
    removals: parts.flatMap((p) => p.removals),
  };
}
