import { endianness } from 'node:os';
import type { PaceSummary } from '../analytics/pace-summary.js';
import { type PackedSummary, packedOf, unpackSummary } from '../analytics/packed-summary.js';
import { inflate } from './kept.js';

/**
 * The stored form of a kept pace summary part (`pace_summary.body`, DESIGN §11.1). The market's pace over
 * 5,000 projects reads 10,000 of them (a year's part each); as gzipped JSON (the form of migrations 8–27)
 * one took ~0.15 ms to inflate and parse, most of it zlib's cost of a call, so the form is compact without
 * a compressor: the doubles as they are, every integer column as the varints of its zigzagged steps (days
 * step by one, counts by a few). A tenth of the time, a few more bytes (docs/performance.md, session 25).
 * A summary read back is the one written to the bit (-0 included, which JSON turned into 0).
 *
 * Layout: u32 × 6 little-endian (FORM, n snapshots, d first-presence numbers, m removals, b days back, 0);
 * float64 × 3n little-endian (priceSum, areaSum, lnSum); then the varints of dates[n], ends[n], stock[n],
 * fresh[n], pairs[n], deltaLength[n], delta[d] (each snapshot's flattened [day, count change] pairs),
 * removal k[m], flatId[m], first[m], backLength[m], back[b]: each column's steps from its previous value
 * (from 0 for its first), zigzagged.
 */
const FORM = 0x32534350; // "PCS2" as a little-endian u32
const HEADER = 6;
const LITTLE = endianness() === 'LE';

/** A summary's stored body. Every integer column must hold 32-bit integers (days, counts, flat ids). */
export function encodeSummary(s: PaceSummary): Buffer {
  const n = s.dates.length;
  const columns: [string, readonly number[]][] = [
    ['dates', s.dates],
    ['ends', s.ends],
    ['stock', s.stock],
    ['fresh', s.fresh],
    ['pairs', s.pairs],
    ['firstDelta', s.firstDelta.map((x) => x.length)],
    ['firstDelta', s.firstDelta.flat()],
    ['removals', s.removals.map((r) => r.k)],
    ['removals', s.removals.map((r) => r.flatId)],
    ['removals', s.removals.map((r) => r.first)],
    ['removals', s.removals.map((r) => r.back.length)],
    ['removals', s.removals.flatMap((r) => r.back)],
  ];
  const count = columns.reduce((sum, [, c]) => sum + c.length, 0);
  const floatsAt = HEADER * 4;
  const out = Buffer.alloc(floatsAt + 3 * n * 8 + count * 5);
  out.writeUInt32LE(FORM, 0);
  out.writeUInt32LE(n, 4);
  out.writeUInt32LE(columns[6][1].length, 8);
  out.writeUInt32LE(s.removals.length, 12);
  out.writeUInt32LE(columns[11][1].length, 16);
  let at = floatsAt;
  for (const column of [s.priceSum, s.areaSum, s.lnSum])
    for (const v of column) at = out.writeDoubleLE(v, at);
  for (const [what, values] of columns) {
    let previous = 0;
    for (const v of values) {
      if (!Number.isInteger(v) || v !== (v | 0))
        throw new Error(`a pace summary's ${what} holds ${v}, not a 32-bit integer`);
      // the step as a zigzagged 33-bit number (two 32-bit values differ by up to 2^32), 7 bits a byte
      let z = v - previous >= 0 ? (v - previous) * 2 : (previous - v) * 2 - 1;
      previous = v;
      while (z >= 0x80) {
        out[at++] = (z % 0x80) | 0x80;
        z = Math.floor(z / 0x80);
      }
      out[at++] = z;
    }
  }
  return out.subarray(0, at);
}

const unknown = () => new Error('a kept pace summary in an unknown form');

/** A little-endian u32 of a body (its header's counts). */
const u32 = (b: Uint8Array, i: number) =>
  (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;

/** where the next varint column begins in the part being read (`column`; one part at a time, synchronously) */
let at = 0;
/** a part's lengths (deltas a snapshot, days back a removal), reused by every part */
let lengths = new Int32Array(1024);

/** `count` values of the part's next varint column into `into` from `offset` on, its steps added up from 0. */
function column(bytes: Uint8Array, into: Int32Array, offset: number, count: number): void {
  const end = bytes.length;
  const stop = offset + count;
  let p = at;
  let previous = 0;
  for (let i = offset; i < stop; i++) {
    if (p >= end) throw unknown();
    let z = bytes[p++];
    // most steps fit one byte (days step by one, counts by a few)
    if (z >= 0x80) {
      z &= 0x7f;
      let byte = 0x80;
      // up to four bytes (28 bits) with integer operations
      for (let shift = 7; byte >= 0x80 && shift < 28; shift += 7) {
        if (p >= end) throw unknown();
        byte = bytes[p++];
        z |= (byte & 0x7f) << shift;
      }
      if (byte >= 0x80) {
        // a step of 2^27 or more: the fifth byte, in floating point (the zigzagged step has 33 bits)
        if (p >= end) throw unknown();
        byte = bytes[p++];
        if (byte >= 0x80) throw unknown();
        const wide = z + byte * 2 ** 28;
        previous = (previous + (wide % 2 === 0 ? wide / 2 : -(wide + 1) / 2)) | 0;
        into[i] = previous;
        continue;
      }
    }
    previous = (previous + ((z >>> 1) ^ -(z & 1))) | 0;
    into[i] = previous;
  }
  at = p;
}

/** A stored body read back: the compact form, or the gzipped JSON of migrations 8–27 (until rewritten). */
export const decodeSummary = (body: Uint8Array): PaceSummary => decodeSummaries([body]);

/** A project's stored parts, in order, read back as one summary in the object form (pace-parts.ts). */
export const decodeSummaries = (bodies: readonly Uint8Array[]): PaceSummary =>
  unpackSummary(decodePacked(bodies));

/**
 * A project's stored parts, in order, read back as one summary in columns (analytics/packed-summary.ts):
 * what analytics/pace-parts.ts joinSummaries makes of them, to the bit, each column allocated once and
 * filled straight from the bytes.
 */
export function decodePacked(bodies: readonly Uint8Array[]): PackedSummary {
  // a part of migrations 8–27 (gzipped JSON, until rewritten) in the compact form first
  const parts = bodies.some(gzipped)
    ? bodies.map((body) =>
        gzipped(body) ? encodeSummary(JSON.parse(inflate(body).toString('utf8')) as PaceSummary) : body,
      )
    : bodies;
  // the counts of every part, read from their headers (each checked against its length)
  let n = 0;
  let d = 0;
  let m = 0;
  let b = 0;
  for (const bytes of parts) {
    if (bytes.length < HEADER * 4 || u32(bytes, 0) !== FORM) throw unknown();
    if (bytes.length < HEADER * 4 + 3 * u32(bytes, 4) * 8) throw unknown();
    n += u32(bytes, 4);
    d += u32(bytes, 8);
    m += u32(bytes, 12);
    b += u32(bytes, 16);
  }
  const out = packedOf(n, d, m, b);
  const o: Head = { n: 0, d: 0, m: 0, b: 0 };
  for (const bytes of parts) {
    const head = { n: u32(bytes, 4), d: u32(bytes, 8), m: u32(bytes, 12), b: u32(bytes, 16) };
    readPart(bytes, head, out, o);
    o.n += head.n;
    o.d += head.d;
    o.m += head.m;
    o.b += head.b;
  }
  return out;
}

const gzipped = (body: Uint8Array) => body[0] === 0x1f && body[1] === 0x8b;

/** A part's counts: snapshots, first-presence numbers, removals, days back. */
interface Head {
  n: number;
  d: number;
  m: number;
  b: number;
}

/** The snapshots' lengths of a part (deltas a snapshot, days back a removal) made into starts from `base`. */
function starts(lengths: Int32Array, count: number, into: Int32Array, from: number, base: number): number {
  let sum = base;
  for (let i = 0; i < count; i++) {
    sum += lengths[i];
    into[from + i + 1] = sum;
  }
  return sum - base;
}

/** One part's columns into `out` from the snapshot, number, removal and day back `o` on. */
function readPart(bytes: Uint8Array, { n, d, m, b }: Head, out: PackedSummary, o: Head): void {
  let p = HEADER * 4;
  for (const column of [out.priceSum, out.areaSum, out.lnSum]) {
    // the stored doubles are little-endian: on such a machine their bytes are copied as they are
    if (LITTLE)
      new Uint8Array(column.buffer, column.byteOffset + o.n * 8, n * 8).set(bytes.subarray(p, p + n * 8));
    else {
      const view = new DataView(bytes.buffer, bytes.byteOffset + p, n * 8);
      for (let i = 0; i < n; i++) column[o.n + i] = view.getFloat64(i * 8, true);
    }
    p += n * 8;
  }
  at = p;
  column(bytes, out.dates, o.n, n);
  column(bytes, out.ends, o.n, n);
  column(bytes, out.stock, o.n, n);
  column(bytes, out.fresh, o.n, n);
  column(bytes, out.pairs, o.n, n);
  if (lengths.length < Math.max(n, m)) lengths = new Int32Array(2 * Math.max(n, m));
  column(bytes, lengths, 0, n);
  if (starts(lengths, n, out.deltaStart, o.n, o.d) !== d) throw unknown();
  column(bytes, out.delta, o.d, d);
  column(bytes, out.removalK, o.m, m);
  column(bytes, out.removalFlat, o.m, m);
  column(bytes, out.removalFirst, o.m, m);
  column(bytes, lengths, 0, m);
  if (starts(lengths, m, out.backStart, o.m, o.b) !== b) throw unknown();
  column(bytes, out.back, o.b, b);
  if (at !== bytes.length) throw unknown();
}
