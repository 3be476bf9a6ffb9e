import { createHash } from 'node:crypto';
import type { RankSummary } from '../analytics/pace-last.js';
import { WINDOW } from '../analytics/pace-summary.js';
import { lowerBound } from '../lib/sorted.js';
import { monthOf } from './kept.js';

/**
 * A project's rank summary (analytics/pace-last.ts) kept a month to a row (`rank_month`): the snapshots of
 * the month and the removals on them, as flat little-endian arrays — a header of counts (snapshots n,
 * removals m, back days b, 0), then priceSum, areaSum, lnSum (float64 × n), then dates, ends, stock, fresh,
 * pairs (int32 × n), removalK (the snapshot's place in the month), removalFirst, the count of each removal's
 * days back (× m), back (× b). Each row notes its `reach`, the last day its snapshots' data run to, so a
 * ranking reads only the months that reach into its period (`readFrom`); the months join back into one
 * summary with a copy of bytes, nothing parsed.
 */
export interface RankMonth {
  /** the first day of the month (days since 1970-01-01) */
  month: number;
  /** the last day the month's snapshots have data on (their last carried day) */
  reach: number;
  body: Buffer;
  /** md5 of the body, hex (as PostgreSQL's md5() spells it) */
  hash: string;
}

const HEADER = 16;
const monthBytes = (n: number, m: number, b: number) => HEADER + 24 * n + 4 * (5 * n + 3 * m + b);

/**
 * The summary split into its months, in order (a project without snapshots has none); from snapshot
 * `fromK` on (the first of a month) when given: the months before it are not made.
 */
export function rankMonths(s: RankSummary, fromK = 0): RankMonth[] {
  const out: RankMonth[] = [];
  let r = 0;
  while (r < s.removalK.length && s.removalK[r] < fromK) r++;
  for (let k0 = fromK; k0 < s.dates.length; ) {
    const month = monthOf(s.dates[k0]);
    let k1 = k0;
    while (k1 < s.dates.length && monthOf(s.dates[k1]) === month) k1++;
    const r0 = r;
    while (r < s.removalK.length && s.removalK[r] < k1) r++;
    const body = encodeRankMonth(s, k0, k1, r0, r);
    out.push({ month, reach: s.ends[k1 - 1], body, hash: rankHash(body) });
    k0 = k1;
  }
  return out;
}

export const rankHash = (body: Uint8Array) => createHash('md5').update(body).digest('hex');

/** A little-endian int32 of a body at `at` (no DataView a month: the whole country reads 20,000). */
const int32At = (body: Uint8Array, at: number) =>
  body[at] | (body[at + 1] << 8) | (body[at + 2] << 16) | (body[at + 3] << 24);

/** The counts of a kept month's header: snapshots n, removals m, back days b. */
export function rankMonthCounts(body: Uint8Array): { n: number; m: number; b: number } {
  if (body.length < HEADER) throw new Error('rank_month: malformed row');
  const [n, m, b] = [int32At(body, 0), int32At(body, 4), int32At(body, 8)];
  if (body.length !== monthBytes(n, m, b)) throw new Error('rank_month: malformed row');
  return { n, m, b };
}

/** Snapshots [k0, k1) of a summary and their removals [r0, r1) as a kept month's bytes. */
export function encodeRankMonth(s: RankSummary, k0: number, k1: number, r0: number, r1: number): Buffer {
  const n = k1 - k0;
  const m = r1 - r0;
  const b = s.backStart[r1] - s.backStart[r0];
  const buffer = new ArrayBuffer(monthBytes(n, m, b));
  new Int32Array(buffer, 0, 4).set([n, m, b, 0]);
  let at = HEADER;
  for (const a of [s.priceSum, s.areaSum, s.lnSum]) {
    const view = new Float64Array(buffer, at, n);
    for (let k = k0; k < k1; k++) view[k - k0] = a[k];
    at += 8 * n;
  }
  for (const a of [s.dates, s.ends, s.stock, s.fresh, s.pairs]) {
    const view = new Int32Array(buffer, at, n);
    for (let k = k0; k < k1; k++) view[k - k0] = a[k];
    at += 4 * n;
  }
  const removals = new Int32Array(buffer, at, 3 * m + b);
  let i = 0;
  for (let r = r0; r < r1; r++) removals[i++] = s.removalK[r] - k0;
  for (let r = r0; r < r1; r++) removals[i++] = s.removalFirst[r];
  for (let r = r0; r < r1; r++) removals[i++] = s.backStart[r + 1] - s.backStart[r];
  for (let j = s.backStart[r0]; j < s.backStart[r1]; j++) removals[i++] = s.back[j];
  return Buffer.from(buffer);
}

// typed views read in the machine's byte order; the kept bytes are little-endian, as every platform Node
// runs this on (x64, arm64) is
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('kept-rank: a big-endian machine');

/** An 8-aligned copy of a body, with views over it; one buffer for every join, grown when a body is larger. */
let scratch = { u8: new Uint8Array(0), f64: new Float64Array(0), i32: new Int32Array(0) };
function scratchFor(body: Uint8Array): typeof scratch {
  if (body.length > scratch.u8.length) {
    const buffer = new ArrayBuffer(Math.max(64 * 1024, 8 * Math.ceil((2 * body.length) / 8)));
    scratch = { u8: new Uint8Array(buffer), f64: new Float64Array(buffer), i32: new Int32Array(buffer) };
  }
  scratch.u8.set(body);
  return scratch;
}

/**
 * The summary of consecutive kept months (in month order) as one: every snapshot and removal of them, the
 * removals' places counted from the first month's first snapshot. The months a ranking reads from a day on
 * give the figures of every day from there exactly as the whole summary does (pace-last.ts reads no
 * snapshot whose data end before its period's window).
 */
export function joinRankMonths(bodies: readonly Uint8Array[]): RankSummary {
  const counts = bodies.map(rankMonthCounts);
  const N = counts.reduce((sum, c) => sum + c.n, 0);
  const M = counts.reduce((sum, c) => sum + c.m, 0);
  const B = counts.reduce((sum, c) => sum + c.b, 0);
  const buffer = new ArrayBuffer(24 * N + 4 * (5 * N + 3 * M + 1 + B));
  let at = 0;
  const f64 = (count: number) => {
    const view = new Float64Array(buffer, at, count);
    at += 8 * count;
    return view;
  };
  const i32 = (count: number) => {
    const view = new Int32Array(buffer, at, count);
    at += 4 * count;
    return view;
  };
  const [priceSum, areaSum, lnSum] = [f64(N), f64(N), f64(N)];
  const [dates, ends, stock, fresh, pairs] = [i32(N), i32(N), i32(N), i32(N), i32(N)];
  const [removalK, removalFirst, backStart, back] = [i32(M), i32(M), i32(M + 1), i32(B)];
  // each month's bytes copied to an aligned scratch buffer (a body sits anywhere in the COPY's bytes), then
  // its values read to their place through typed views: no DataView call a value, no view a month
  let k = 0;
  let r = 0;
  let j = 0;
  for (const [i, body] of bodies.entries()) {
    const { n, m, b } = counts[i];
    const { f64: sf, i32: si } = scratchFor(body);
    let from = HEADER / 8;
    for (const target of [priceSum, areaSum, lnSum]) {
      for (let x = k; x < k + n; x++) target[x] = sf[from++];
    }
    from = (HEADER + 24 * n) / 4;
    for (const target of [dates, ends, stock, fresh, pairs]) {
      for (let x = k; x < k + n; x++) target[x] = si[from++];
    }
    for (let x = r; x < r + m; x++) removalK[x] = si[from++] + k;
    for (let x = r; x < r + m; x++) removalFirst[x] = si[from++];
    // the counts of days back go where the starts will be made, one place on
    for (let x = r + 1; x <= r + m; x++) backStart[x] = si[from++];
    for (let x = j; x < j + b; x++) back[x] = si[from++];
    k += n;
    r += m;
    j += b;
  }
  for (let x = 1; x <= M; x++) backStart[x] += backStart[x - 1];
  return {
    dates,
    ends,
    stock,
    priceSum,
    areaSum,
    fresh,
    lnSum,
    pairs,
    removalK,
    removalFirst,
    backStart,
    back,
  };
}

/** How far back of a day a ranking reads: the pace's window (WINDOW days, pace-last.ts) and a day more. */
export const READ_BACK = WINDOW + 1;

/**
 * The first day a ranking of [from, …] may read a project's data on: the window of a last day with data
 * near `from` looks 30 days back from it (pace-last.ts), a day more for safety; rounded down to the
 * month's first day, neighbouring periods share what is held.
 */
export const readFrom = (from: number) => monthOf(from - READ_BACK);

/**
 * The first day a ranking of [from, to] reads every project's data on: the index chains from `from`, and
 * the window of a last day with data on `to` looks back 31 days. A project whose data end earlier in the
 * period is read again from `readFrom(from)` (read/rank-reader.ts). A 90-day ranking reads 4 months of
 * each project, not 5.
 */
export const rankStart = (from: number, to: number) => monthOf(Math.min(from, to - READ_BACK));

/**
 * Whether a summary read from day `read` on has what a ranking of [from, to] reads of it: the 30-day window
 * of its last day with data in the period (pace-last.ts), a day more for safety. Without data in the
 * period, it has.
 */
export function covers(s: RankSummary, read: number, from: number, to: number): boolean {
  const k = lowerBound(s.dates, to + 1) - 1;
  if (k < 0) return true;
  const last = Math.min(to, s.ends[k]);
  return last < from || last - READ_BACK >= read;
}
