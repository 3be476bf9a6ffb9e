import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lightHistory, type ShiftFacts, type StateAt, shiftFactsOf } from '../analytics/registry.js';
import { fromDay } from '../lib/days.js';
import { decodeHistory, encodeHistory } from './kept-history.js';

const day = fc.integer({ min: 0, max: 2_932_896 }).map(fromDay); // 1970-01-01 … 9999-12-31
const date = fc.record({ day, quarter: fc.boolean() });
const number = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
// every subset of the facts the figures read, in an arbitrary key order (as a state's eff comes)
const facts = fc
  .record(
    {
      salesRealised: number,
      transfer: date,
      flats: number,
      ready: date,
      soldShare: fc.double({ min: 0, max: 1, noNaN: true }),
      salesTotal: number,
    },
    { requiredKeys: [] },
  )
  .map((eff) => eff as ShiftFacts);
// facts drawn from a few values, so that most states repeat most of the state before (as a registry's week
// does: the sales move, the dates stay), and a fact is now stated, now not
const few = <T>(...values: T[]) => fc.constantFrom(...values);
const weekly = fc
  .record(
    {
      ready: few({ day: '2026-12-31', quarter: true }, { day: '2027-03-15', quarter: false }),
      transfer: few({ day: '2027-06-30', quarter: true }),
      flats: few(120, 121),
      soldShare: few(0.25, 0.5, -0),
      salesTotal: few(120),
      salesRealised: few(30, 31, 32.5),
    },
    { requiredKeys: [] },
  )
  .map((eff) => eff as ShiftFacts);
const history = fc.array(fc.record({ day, eff: fc.oneof(facts, weekly, weekly) }), { maxLength: 60 });

describe('a registry object’s light history as bytes (db/kept-history.ts)', () => {
  it('comes back as the facts the figures read, in their one key order, to the bit', () => {
    fc.assert(
      fc.property(history, (h: StateAt[]) => {
        const back = decodeHistory(encodeHistory(h));
        const light = h.map((s) => ({ day: s.day, eff: shiftFactsOf(s.eff) }));
        // the same JSON: keys in shiftFactsOf's order, every number the same (Object.is: −0 too)
        expect(JSON.stringify(back)).toBe(JSON.stringify(light));
        back.forEach((s, i) => {
          for (const k of ['flats', 'soldShare', 'salesTotal', 'salesRealised'] as const)
            expect(Object.is(s.eff[k], light[i].eff[k])).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('lets a replay go on from it as from the states (lightHistory with the decoded prefix)', () => {
    fc.assert(
      fc.property(history, history, (before: StateAt[], after: StateAt[]) => {
        const whole = lightHistory([], [...before, ...after]);
        const prefix = decodeHistory(encodeHistory(lightHistory([], before)));
        expect(encodeHistory(lightHistory(prefix, after)).equals(encodeHistory(whole))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses bytes cut short or with bytes left over', () => {
    const body = encodeHistory([
      {
        day: '2025-01-06',
        eff: { ready: { day: '2026-12-31', quarter: true }, flats: 120, soldShare: 0.25 },
      },
    ]);
    expect(decodeHistory(body)[0].eff.flats).toBe(120);
    expect(() => decodeHistory(body.subarray(0, body.length - 1))).toThrow(/malformed|out of range/);
    expect(() => decodeHistory(Buffer.concat([body, Buffer.from([0])]))).toThrow(/malformed/);
    expect(() => decodeHistory(Buffer.alloc(2))).toThrow(/malformed/);
  });
});
