import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinSummaries } from '../src/analytics/pace-parts.js';
import type { PaceSummary } from '../src/analytics/pace-summary.js';
import { type PackedSummary, packSummary, unpackSummary } from '../src/analytics/packed-summary.js';
import { decodePacked, decodeSummary, encodeSummary } from '../src/db/pace-form.js';

const int = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const double = fc.double({ noNaN: true, noDefaultInfinity: true });

/** A summary of n snapshots with every column filled at random (not a consistent one: the form is a form). */
const summaryArb: fc.Arbitrary<PaceSummary> = fc.integer({ min: 0, max: 40 }).chain((n) =>
  fc.record({
    dates: fc.array(int, { minLength: n, maxLength: n }),
    ends: fc.array(int, { minLength: n, maxLength: n }),
    stock: fc.array(int, { minLength: n, maxLength: n }),
    priceSum: fc.array(double, { minLength: n, maxLength: n }),
    areaSum: fc.array(double, { minLength: n, maxLength: n }),
    fresh: fc.array(int, { minLength: n, maxLength: n }),
    lnSum: fc.array(double, { minLength: n, maxLength: n }),
    pairs: fc.array(int, { minLength: n, maxLength: n }),
    firstDelta: fc.array(fc.array(int, { maxLength: 6 }), { minLength: n, maxLength: n }),
    removals: fc.array(
      fc.record({ k: int, flatId: int, first: int, back: fc.array(int, { maxLength: 4 }) }),
      { maxLength: 12 },
    ),
  }),
);

/** Equal to the bit: -0 is not 0. */
const bits = (s: PaceSummary) =>
  JSON.stringify(s, (_key, v) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : v));

describe('the stored form of a pace summary (db/pace-form.ts)', () => {
  it('reads back every summary written, to the bit, wherever its bytes lie', () => {
    fc.assert(
      fc.property(summaryArb, fc.integer({ min: 0, max: 7 }), (s, shift) => {
        const body = encodeSummary(s);
        // the body at an offset no typed array may start at, as a driver may hand it over
        const moved = new Uint8Array(body.length + shift);
        moved.set(body, shift);
        const read = decodeSummary(moved.subarray(shift));
        expect(bits(read)).toBe(bits(s));
        expect(read).toEqual(s);
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });

  it('reads a project’s parts in columns (what the market sweeps) as the parts joined, to the bit', () => {
    const columns = (p: PackedSummary) =>
      Object.entries(p).map(([name, column]) => [
        name,
        Array.from(column as Int32Array, (v) => (Object.is(v, -0) ? '-0' : v)),
      ]);
    fc.assert(
      fc.property(
        fc.array(summaryArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 7 }),
        (parts, shift) => {
          const bodies = parts.map((part) => {
            const body = encodeSummary(part);
            const moved = new Uint8Array(body.length + shift);
            moved.set(body, shift);
            return moved.subarray(shift);
          });
          const joined = joinSummaries(parts);
          const packed = decodePacked(bodies);
          expect(columns(packed)).toEqual(columns(packSummary(joined)));
          // and back: the object form the import starts from
          expect(bits(unpackSummary(packed))).toBe(bits(joined));
          expect(packSummary(packed)).toBe(packed);
        },
      ),
      { numRuns: 200, seed: 20261127 },
    );
  });

  it('reads parts longer than the decoder’s first scratch (a big project’s year: thousands of removals)', () => {
    const [n, m] = [1_500, 2_600];
    const seq = (length: number, f: (i: number) => number) => Array.from({ length }, (_, i) => f(i));
    const part = (shift: number): PaceSummary => ({
      dates: seq(n, (i) => 20_000 + shift + i),
      ends: seq(n, (i) => 20_000 + shift + i),
      stock: seq(n, (i) => 2_000 - (i % 97)),
      priceSum: seq(n, (i) => 1e9 + i * 0.25),
      areaSum: seq(n, (i) => 1e5 + i / 8),
      fresh: seq(n, (i) => i % 5),
      lnSum: seq(n, (i) => -i / 1024),
      pairs: seq(n, (i) => i % 7),
      firstDelta: seq(n, (i) => (i % 3 ? [20_000 + i, 1] : [])),
      removals: seq(m, (i) => ({
        k: i % n,
        flatId: 10 * i + shift,
        first: 19_000 + i,
        back: i % 4 ? [] : [i, i + 1],
      })),
    });
    const parts = [part(0), part(n)];
    const packed = decodePacked(parts.map(encodeSummary));
    expect(bits(unpackSummary(packed))).toBe(bits(joinSummaries(parts)));
  });

  it('reads the gzipped JSON of migrations 8–27 as written', () => {
    fc.assert(
      fc.property(summaryArb, (s) => {
        const json = JSON.parse(JSON.stringify(s)) as PaceSummary;
        expect(decodeSummary(gzipSync(JSON.stringify(s)))).toEqual(json);
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  it('refuses an integer column holding what 32 bits cannot, and a body in no known form', () => {
    const [s] = fc.sample(
      summaryArb.filter((x) => x.dates.length > 0),
      { numRuns: 1, seed: 3 },
    );
    for (const bad of [0.5, 2 ** 31, -(2 ** 31) - 1, Number.NaN])
      expect(() => encodeSummary({ ...s, stock: [bad, ...s.stock.slice(1)] })).toThrow(/stock holds/);
    expect(() => decodeSummary(Buffer.from('not a summary at all'))).toThrow(/unknown form/);
    // every body cut short, or with a byte more, is refused, never read as another summary
    const body = encodeSummary(s);
    for (let cut = 0; cut < body.length; cut++)
      expect(() => decodeSummary(body.subarray(0, cut)), `cut at ${cut}`).toThrow(/unknown form/);
    expect(() => decodeSummary(Buffer.concat([body, Buffer.from([0])]))).toThrow(/unknown form/);
  });
});
