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

/** A part's counts, read from its header (checked against its length by the decoder). */
interface Head {
  n: number;
  d: number;
  m: number;
  b: number;
}

const unknown = () => new Error('a kept pace summary in an unknown form');

/** The varints of a body's integer columns, each column's steps added up from 0. */
class Varints {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  /** `count` values of the next column into `into` from `offset` on. */
  column(into: Int32Array, offset: number, count: number): void {
    const bytes = this.bytes;
    const end = bytes.length;
    let at = this.at;
    let previous = 0;
    for (let i = 0; i < count; i++) {
      if (at >= end) throw unknown();
      let z = bytes[at++];
      // most steps fit one byte (days step by one, counts by a few)
      if (z >= 0x80) {
        z &= 0x7f;
        let byte = 0x80;
        // up to four bytes (28 bits) with integer operations
        for (let shift = 7; byte >= 0x80 && shift < 28; shift += 7) {
          if (at >= end) throw unknown();
          byte = bytes[at++];
          z |= (byte & 0x7f) << shift;
        }
        if (byte >= 0x80) {
          // a step of 2^27 or more: the fifth byte, in floating point (the zigzagged step has 33 bits)
          if (at >= end) throw unknown();
          byte = bytes[at++];
          if (byte >= 0x80) throw unknown();
          const wide = z + byte * 2 ** 28;
          previous = (previous + (wide % 2 === 0 ? wide / 2 : -(wide + 1) / 2)) | 0;
          into[offset + i] = previous;
          continue;
        }
      }
      previous = (previous + ((z >>> 1) ^ -(z & 1))) | 0;
      into[offset + i] = previous;
    }
    this.at = at;
  }
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
  const parts = bodies.map((body) =>
    body[0] === 0x1f && body[1] === 0x8b
      ? encodeSummary(JSON.parse(inflate(body).toString('utf8')) as PaceSummary)
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  );
  const heads: Head[] = parts.map((bytes) => {
    if (bytes.length < HEADER * 4 || bytes.readUInt32LE(0) !== FORM) throw unknown();
    const [n, d, m, b] = [4, 8, 12, 16].map((i) => bytes.readUInt32LE(i));
    if (bytes.length < HEADER * 4 + 3 * n * 8) throw unknown();
    return { n, d, m, b };
  });
  const total = (key: keyof Head) => heads.reduce((sum, h) => sum + h[key], 0);
  const out = packedOf(total('n'), total('d'), total('m'), total('b'));
  const at: Head = { n: 0, d: 0, m: 0, b: 0 };
  for (const [i, bytes] of parts.entries()) {
    readPart(bytes, heads[i], out, at);
    for (const key of ['n', 'd', 'm', 'b'] as const) at[key] += heads[i][key];
  }
  return out;
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
function readPart(bytes: Buffer, { n, d, m, b }: Head, out: PackedSummary, o: Head): void {
  let at = HEADER * 4;
  for (const column of [out.priceSum, out.areaSum, out.lnSum]) {
    // the stored doubles are little-endian: on such a machine their bytes are copied as they are
    if (LITTLE)
      new Uint8Array(column.buffer, column.byteOffset + o.n * 8, n * 8).set(bytes.subarray(at, at + n * 8));
    else for (let i = 0; i < n; i++) column[o.n + i] = bytes.readDoubleLE(at + i * 8);
    at += n * 8;
  }
  const ints = new Varints(bytes, at);
  for (const column of [out.dates, out.ends, out.stock, out.fresh, out.pairs]) ints.column(column, o.n, n);
  const lengths = new Int32Array(Math.max(n, m));
  ints.column(lengths, 0, n);
  if (starts(lengths, n, out.deltaStart, o.n, o.d) !== d) throw unknown();
  ints.column(out.delta, o.d, d);
  for (const column of [out.removalK, out.removalFlat, out.removalFirst]) ints.column(column, o.m, m);
  ints.column(lengths, 0, m);
  if (starts(lengths, m, out.backStart, o.m, o.b) !== b) throw unknown();
  ints.column(out.back, o.b, b);
  if (ints.at !== bytes.length) throw unknown();
}
