import type { PaceSummary } from './pace-summary.js';
import type { RankSummary } from './rank-summary.js';

/**
 * A pace summary (pace-summary.ts) in columns of typed arrays: what the union sweep reads, and the form the
 * market holds of 5,000 projects — a few typed arrays a project, not a JS array a snapshot and an object a
 * removal (424 MB of heap for one filter of the reference market, and a collector marking it for seconds).
 * The same numbers as the object form, to the bit; integer columns hold 32-bit integers (days, counts, ids).
 */
export interface PackedSummary extends RankSummary {
  dates: Int32Array;
  ends: Int32Array;
  stock: Int32Array;
  priceSum: Float64Array;
  areaSum: Float64Array;
  fresh: Int32Array;
  lnSum: Float64Array;
  pairs: Int32Array;
  /** snapshot k's first-presence changes are delta[deltaStart[k] … deltaStart[k + 1]) as [day, change] */
  deltaStart: Int32Array;
  delta: Int32Array;
  removalK: Int32Array;
  removalFlat: Int32Array;
  removalFirst: Int32Array;
  backStart: Int32Array;
  back: Int32Array;
}

/**
 * The columns of a packed summary of n snapshots, d first-presence numbers, m removals and b days back: views
 * of one buffer (a typed array's own buffer costs more to make than filling it, 15 a project).
 */
export function packedOf(n: number, d: number, m: number, b: number): PackedSummary {
  const buffer = new ArrayBuffer(8 * 3 * n + 4 * (5 * n + n + 1 + d + 3 * m + m + 1 + b));
  let at = 0;
  const floats = () => {
    const column = new Float64Array(buffer, at, n);
    at += 8 * n;
    return column;
  };
  const ints = (length: number) => {
    const column = new Int32Array(buffer, at, length);
    at += 4 * length;
    return column;
  };
  const [priceSum, areaSum, lnSum] = [floats(), floats(), floats()];
  return {
    dates: ints(n),
    ends: ints(n),
    stock: ints(n),
    priceSum,
    areaSum,
    fresh: ints(n),
    lnSum,
    pairs: ints(n),
    deltaStart: ints(n + 1),
    delta: ints(d),
    removalK: ints(m),
    removalFlat: ints(m),
    removalFirst: ints(m),
    backStart: ints(m + 1),
    back: ints(b),
  };
}

export const isPacked = (s: PaceSummary | PackedSummary): s is PackedSummary => 'deltaStart' in s;

/** The object form in columns. */
export function packSummary(s: PaceSummary | PackedSummary): PackedSummary {
  if (isPacked(s)) return s;
  const n = s.dates.length;
  let d = 0;
  for (const x of s.firstDelta) d += x.length;
  let b = 0;
  for (const r of s.removals) b += r.back.length;
  const out = packedOf(n, d, s.removals.length, b);
  out.dates.set(s.dates);
  out.ends.set(s.ends);
  out.stock.set(s.stock);
  out.priceSum.set(s.priceSum);
  out.areaSum.set(s.areaSum);
  out.fresh.set(s.fresh);
  out.lnSum.set(s.lnSum);
  out.pairs.set(s.pairs);
  let at = 0;
  for (let k = 0; k < n; k++) {
    out.delta.set(s.firstDelta[k], at);
    at += s.firstDelta[k].length;
    out.deltaStart[k + 1] = at;
  }
  at = 0;
  for (const [i, r] of s.removals.entries()) {
    out.removalK[i] = r.k;
    out.removalFlat[i] = r.flatId;
    out.removalFirst[i] = r.first;
    out.back.set(r.back, at);
    at += r.back.length;
    out.backStart[i + 1] = at;
  }
  return out;
}

/** The columns in the object form (the import's starting point, the tests). */
export function unpackSummary(p: PackedSummary): PaceSummary {
  const list = (a: Int32Array | Float64Array) => Array.from(a);
  return {
    dates: list(p.dates),
    ends: list(p.ends),
    stock: list(p.stock),
    priceSum: list(p.priceSum),
    areaSum: list(p.areaSum),
    fresh: list(p.fresh),
    lnSum: list(p.lnSum),
    pairs: list(p.pairs),
    firstDelta: Array.from(p.dates, (_, k) => list(p.delta.subarray(p.deltaStart[k], p.deltaStart[k + 1]))),
    removals: Array.from(p.removalK, (k, i) => ({
      k,
      flatId: p.removalFlat[i],
      first: p.removalFirst[i],
      back: list(p.back.subarray(p.backStart[i], p.backStart[i + 1])),
    })),
  };
}

/** The heap and buffer a packed summary holds, bytes (the caches' measure). */
export const packedBytes = (p: PackedSummary): number => 1700 + p.dates.buffer.byteLength;

export const EMPTY_PACKED: PackedSummary = packedOf(0, 0, 0, 0);
