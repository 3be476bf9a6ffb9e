import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnswer } from './answers.js';

// Property: an answer of generated objects, every value in a spelling §12.3 lists (or missing), reads back
// to the planted values; a value no spelling reads refuses that object alone, naming it; nothing throws.

const ROMAN = ['I', 'II', 'III', 'IV'];
const QUARTER_END = ['03-31', '06-30', '09-30', '12-31'];

/** A planted declared date and one of its spellings. */
const dateArb = fc
  .record({
    y: fc.integer({ min: 2020, max: 2032 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    quarter: fc.boolean(),
    how: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ y, m, d, quarter, how }) => {
    if (quarter) {
      const q = Math.floor((m - 1) / 3);
      const text = how % 2 ? `${ROMAN[q]} кв. ${y}` : `${q + 1} квартал ${y} г.`;
      return { text, want: { day: `${y}-${QUARTER_END[q]}`, quarter: true } };
    }
    const mm = String(m).padStart(2, '0');
    const dd = String(d).padStart(2, '0');
    const text = [
      `${y}-${mm}-${dd}`,
      `${dd}.${mm}.${y}`,
      `${y}-${mm}-${dd}T00:00:00`,
      `${y}-${mm}-${dd}T12:30:00.000Z`,
      `${y}-${mm}-${dd}`,
      `${dd}.${mm}.${y}`,
    ][how];
    return { text, want: { day: `${y}-${mm}-${dd}`, quarter: false } };
  });

const countArb = fc
  .integer({ min: 0, max: 5000 })
  .chain((n) => fc.constantFrom<[unknown, number]>([n, n], [String(n), n], [` ${n} `, n]));
const flagArb = fc
  .boolean()
  .chain((b) =>
    fc.constantFrom<[unknown, boolean]>(
      [b, b],
      [b ? 1 : 0, b],
      [b ? '1' : '0', b],
      [b ? 'да' : 'нет', b],
      [b ? 'True' : 'FALSE', b],
    ),
  );
const shareArb = fc
  .integer({ min: 0, max: 100 })
  .chain((p) =>
    fc.constantFrom<[unknown, number]>(
      [p / 100, p / 100],
      [p > 1 ? p : p / 100, p / 100],
      [`${p}%`, p / 100],
      [String(p / 100), p / 100],
    ),
  );

/** A planted object: its fields (any may be missing or null) and what each should read as. */
const objectArb = fc
  .record(
    {
      objId: fc.integer({ min: 1, max: 10_000_000 }),
      flats: countArb,
      ready: dateArb,
      escrow: flagArb,
      problem: flagArb,
      lat: fc.double({ min: 41, max: 82, noNaN: true }).map((v) => Math.round(v * 1e5) / 1e5),
    },
    { requiredKeys: ['objId'] },
  )
  .chain((o) =>
    fc.record({
      o: fc.constant(o),
      nulls: fc.subarray(['flats', 'ready', 'escrow', 'problem', 'lat']),
      latAsText: fc.boolean(),
    }),
  );

describe('the registry list read in every spelling (DESIGN §12.3)', () => {
  it('reads each planted value, a missing or null field as unknown, and never throws', () => {
    fc.assert(
      fc.property(fc.uniqueArray(objectArb, { maxLength: 12, selector: (x) => x.o.objId }), (objects) => {
        const list = objects.map(({ o, nulls, latAsText }) => {
          const entry: Record<string, unknown> = { objId: o.objId };
          if (o.flats) entry.objElemLivingCnt = o.flats[0];
          if (o.ready) entry.objReady100PercDt = o.ready.text;
          if (o.escrow) entry.objGuarantyEscrowFlg = o.escrow[0];
          if (o.problem) entry[o.objId % 2 ? 'objProblemFlg' : 'problemFlag'] = o.problem[0];
          if (o.lat !== undefined) entry.latitude = latAsText ? String(o.lat) : o.lat;
          for (const key of nulls) {
            const name = {
              flats: 'objElemLivingCnt',
              ready: 'objReady100PercDt',
              escrow: 'objGuarantyEscrowFlg',
              problem: 'objProblemFlg',
              lat: 'latitude',
            }[key]!;
            if (name in entry) entry[name] = null;
            if (key === 'problem') delete entry.problemFlag;
          }
          return entry;
        });
        const read = readAnswer({ data: { list, total: list.length } });
        if ('error' in read) throw new Error(read.error);
        expect(read.objects).toHaveLength(objects.length);
        for (const [i, { o, nulls }] of objects.entries()) {
          const got = read.objects[i];
          if (!('facts' in got)) throw new Error(got.error);
          expect(got.objId).toBe(o.objId);
          const want = (key: string, value: unknown) => (nulls.includes(key) ? undefined : value);
          expect(got.facts.flats).toEqual(want('flats', o.flats?.[1]));
          expect(got.facts.ready).toEqual(want('ready', o.ready?.want));
          expect(got.facts.escrow).toEqual(want('escrow', o.escrow?.[1]));
          expect(got.facts.problem).toEqual(want('problem', o.problem?.[1]));
          expect(got.facts.lat).toEqual(want('lat', o.lat));
        }
      }),
      { numRuns: 400, seed: 20261127 },
    );
  });

  it('an object’s detail reads its sold share in every spelling (0–1, 0–100, «%»), absent as unknown', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.option(shareArb), (objId, share) => {
        const data: Record<string, unknown> = { objId };
        if (share) data.soldOutPerc = share[0];
        const read = readAnswer({ data });
        if ('error' in read) throw new Error(read.error);
        expect(read.kind).toBe('detail');
        const got = read.objects[0];
        if (!('facts' in got)) throw new Error(got.error);
        expect(got.facts.soldShare).toBe(share ? share[1] : undefined);
      }),
      { numRuns: 300, seed: 20261127 },
    );
  });

  it('a value no spelling reads refuses its object alone, naming the object and the field', () => {
    const junk = fc.constantFrom('скоро', '31/12/2027', '2027-02-30', 'V кв. 2027', {}, [1], true, -3, 'NaN');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('objReady100PercDt', 'objElemLivingCnt', 'objPublDt', 'objFloorMax'),
        junk,
        (at, field, value) => {
          const list = Array.from({ length: 6 }, (_, i) => ({ objId: i + 1, objElemLivingCnt: 10 }));
          (list[at] as Record<string, unknown>)[field] = value;
          const read = readAnswer({ data: { list } });
          if ('error' in read) throw new Error(read.error);
          const refused = read.objects.filter((x) => 'error' in x);
          // booleans and numbers are not dates; -3 is no count; a count given as `true` is no count either
          expect(refused).toHaveLength(1);
          expect(refused[0]).toEqual({
            objId: at + 1,
            error: expect.stringContaining(`объект ${at + 1}: ${field}`),
          });
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });
});
