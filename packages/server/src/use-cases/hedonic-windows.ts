import { HEDONIC_WINDOW, type HedonicLink } from '../analytics/hedonic-index.js';
import type { LinkWindows } from '../db/kept.js';

/**
 * Which of a kept segment's links a round fits again (use-cases/hedonic-links.ts): a link of period p is a
 * function of its members' months in [p − window + 1, p] in the members' order, so it is named by a hash of
 * those months and their stamps (db/queries/hedonic.ts: a month rewritten has a new stamp). A window whose hash
 * is the one kept is taken as kept; the others are fitted. A day's import rewrites a project's latest two
 * months: two windows of a segment, not its whole history.
 */

/** A project's kept month and the stamp it was written with. */
export interface MonthStamp {
  project: number;
  period: number;
  stamp: number;
}

/** The projects' months by project, each ascending (as `hedonicStamps` reads them). */
export function stampsByProject(rows: readonly MonthStamp[]): Map<number, MonthStamp[]> {
  const out = new Map<number, MonthStamp[]>();
  for (const r of rows) {
    const list = out.get(r.project);
    if (list) list.push(r);
    else out.set(r.project, [r]);
  }
  return out;
}

/**
 * The hashes of a segment's windows, from its first month with sums to its last: each of the members' months in
 * the window with its stamp, members in order (two 32-bit FNV-1a-like hashes a window, as `membersVersion`).
 */
export function windowsOf(
  members: readonly number[],
  stamps: ReadonlyMap<number, readonly MonthStamp[]>,
  window = HEDONIC_WINDOW,
): LinkWindows {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const id of members)
    for (const m of stamps.get(id) ?? []) {
      first = Math.min(first, m.period);
      last = Math.max(last, m.period);
    }
  if (first > last) return { first: 0, hashes: new Uint32Array(0) };
  const hashes = new Uint32Array((last - first + 1) * 2);
  for (let p = first; p <= last; p++) {
    let a = 0x811c9dc5;
    let b = 0x3c6ef372;
    for (const id of members)
      for (const m of stamps.get(id) ?? []) {
        if (m.period > p) break;
        if (m.period <= p - window) continue;
        a = Math.imul(a ^ id, 0x01000193);
        a = Math.imul(a ^ m.period, 0x01000193);
        a = Math.imul(a ^ m.stamp, 0x01000193);
        b = Math.imul(b ^ m.stamp, 0x85ebca6b);
        b = Math.imul(b ^ m.period, 0xc2b2ae35);
        b = Math.imul(b ^ id, 0x85ebca6b);
      }
    hashes[(p - first) * 2] = a >>> 0;
    hashes[(p - first) * 2 + 1] = b >>> 0;
  }
  return { first, hashes };
}

/** The periods of `now` whose window is not the one kept (every period when nothing is kept). */
export function periodsToRefit(kept: LinkWindows | null, now: LinkWindows): number[] {
  const out: number[] = [];
  const count = now.hashes.length / 2;
  for (let i = 0; i < count; i++) {
    const p = now.first + i;
    const k = kept ? p - kept.first : -1;
    if (
      !kept ||
      k < 0 ||
      k * 2 >= kept.hashes.length ||
      kept.hashes[k * 2] !== now.hashes[i * 2] ||
      kept.hashes[k * 2 + 1] !== now.hashes[i * 2 + 1]
    )
      out.push(p);
  }
  return out;
}

/** Ascending periods as runs [from, to] of consecutive ones. */
export function runsOf(periods: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const p of periods) {
    const run = runs.at(-1);
    if (run && run[1] === p - 1) run[1] = p;
    else runs.push([p, p]);
  }
  return runs;
}

/** The segment's links: the kept ones of windows unchanged within `now`, and the ones fitted again. */
export function mergeLinks(
  kept: readonly HedonicLink[],
  fitted: readonly HedonicLink[],
  now: LinkWindows,
  refit: readonly number[],
): HedonicLink[] {
  const last = now.first + now.hashes.length / 2 - 1;
  const again = new Set(refit);
  return [
    ...kept.filter((l) => l.period >= now.first && l.period <= last && !again.has(l.period)),
    ...fitted,
  ].sort((x, y) => x.period - y.period);
}
