import { lowerBound } from '../lib/sorted.js';
import { joinSummaries, snapshotsOf } from './pace-parts.js';
import { type PaceSummary, WINDOW } from './pace-summary.js';

/**
 * A pace summary's tail (DESIGN §11.1): its snapshots from one on, the first holding the stock's first
 * presences whole (not their change from the snapshot before), its removals from there re-numbered. A
 * union sweep from a day `from` reads nothing of a project before the snapshot covering `from − 30` (the
 * windows of gone and new lots, the stock a month before, the removals' days on market) but the stock's
 * first presences there — so the tails of a union's members give the same points, to the bit, as their
 * whole summaries for every day from `tailServes` on. The market's kept spans are brought up to date
 * from their members' tails (use-cases/market-spans.ts): a day reads a few weeks of 5,000 projects, not
 * their history.
 */

/**
 * A tail begins at the snapshot on or before the last multiple of TAIL_STEP days (since 1970) at least
 * TAIL_KEEP days before its last day with data: 45 to 75 days of it, so it serves a sweep from 15 days before
 * its end (a day's change moves the last few), the same for the same summary however it was made (an
 * import's, a rebuild's: the kept bytes compare).
 */
export const TAIL_STEP = 30;
export const TAIL_KEEP = 45;

/** The stock's first presences at snapshot k: its first change and every one after, added up, by day. */
function firstsAt(s: PaceSummary, k: number): number[] {
  const counts = new Map<number, number>();
  for (let i = 0; i <= k; i++) {
    const delta = s.firstDelta[i];
    for (let j = 0; j < delta.length; j += 2)
      counts.set(delta[j], (counts.get(delta[j]) ?? 0) + delta[j + 1]);
  }
  const out: number[] = [];
  for (const day of [...counts.keys()].sort((a, b) => a - b)) {
    const count = counts.get(day)!;
    if (count) out.push(day, count);
  }
  return out;
}

/** The summary from snapshot k0 on, its first presences whole there (k0 = 0: the whole summary). */
export function tailOf(s: PaceSummary, k0: number): PaceSummary {
  if (k0 <= 0) return s;
  const r0 = lowerBound(
    s.removals.map((r) => r.k),
    k0,
  );
  const from = snapshotsOf(s, k0);
  from.firstDelta[0] = firstsAt(s, k0);
  return { ...from, removals: s.removals.slice(r0).map((r) => ({ ...r, k: r.k - k0 })) };
}

/** Where a summary's tail begins (TAIL_STEP): a snapshot's index, 0 for a summary kept whole. */
export function tailStart(s: Pick<PaceSummary, 'dates' | 'ends'>): number {
  const n = s.dates.length;
  if (n === 0) return 0;
  const anchor = Math.floor((s.ends[n - 1] - TAIL_KEEP) / TAIL_STEP) * TAIL_STEP;
  return Math.max(0, lowerBound(s.dates, anchor + 1) - 1);
}

/**
 * The first day from which a sweep over a tail gives the whole summary's points: 30 days after its first
 * snapshot (WINDOW: nothing before the snapshot covering the day 30 days back is read), any day for a
 * summary kept whole (`whole`: its tail begins at its first snapshot).
 */
export const tailServes = (t: { dates: ArrayLike<number> }, whole: boolean): number =>
  whole || t.dates.length === 0 ? Number.NEGATIVE_INFINITY : t.dates[0] + WINDOW;

/**
 * A project's tail after a change: `summaries` is the project's summary made again, real from snapshot
 * `kP` on (placeholders before, derive/pace.ts), its entries before snapshot `k` the same as before but
 * for what a change moves from `kP` on; `old` is the tail as kept and `t0` its first snapshot in the
 * summary's numbering. The old tail's entries before `kP` and its first presences at `t0` stand when
 * t0 < k; null when they do not (no tail kept, a change before it): the tail is then made from the whole
 * summary as kept (and when the tail would begin before the old one).
 */
export function nextTail(
  summary: PaceSummary,
  kP: number,
  k: number,
  old: { tail: PaceSummary; t0: number } | null,
): PaceSummary | null {
  const start = tailStart(summary);
  if (kP === 0) return tailOf(summary, start);
  if (!old || old.t0 >= k || old.t0 > start || old.tail.dates[0] !== summary.dates[old.t0]) return null;
  const { tail, t0 } = old;
  // the old tail's entries from t0 to kP, the summary's from kP (or t0) on, numbered from t0
  const from = Math.max(t0, kP);
  const rest: PaceSummary = {
    ...snapshotsOf(summary, from),
    removals: summary.removals.filter((r) => r.k >= from).map((r) => ({ ...r, k: r.k - t0 })),
  };
  const head = kP - t0;
  const joined = joinSummaries(
    head > 0
      ? [{ ...snapshotsOf(tail, 0, head), removals: tail.removals.filter((r) => r.k < head) }, rest]
      : [rest],
  );
  // the first presences at t0 as the old tail holds them whole
  joined.firstDelta[0] = tail.firstDelta[0];
  return tailOf(joined, start - t0);
}
