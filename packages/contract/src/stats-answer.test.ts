import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statsResponseSchema } from './api.js';
import { parseStatsAnswer } from './stats-answer.js';

// The fast door of the stats answer gives exactly what the schema gives: the same success, the same data,
// on generated answers and on the same answers broken at a random place.

const price = fc.double({ min: 1, max: 1e7, noNaN: true, noDefaultInfinity: true });
const map = fc.dictionary(
  fc.constantFrom('0', '1', '2', 'WHITE', 'null', '2027-12-31'),
  fc.option(price, { nil: null }),
);
const point = fc.record({
  date: fc.constantFrom('2026-11-20', '2026-11-21'),
  minMeterPrice: price,
  maxMeterPrice: price,
  avgMeterPrice: price,
  avgMeterPriceByFacing: map,
  avgMeterPriceBySettlementDate: map,
  avgMeterPriceByBuilding: map,
  avgMeterPriceByRoomsNumber: map,
});
const group = fc.record({ points: fc.array(point, { maxLength: 4 }) });
const answer = fc.record({
  allRoomsData: group,
  studioData: group,
  oneRoomData: group,
  twoRoomsData: group,
  threeAndMoreRoomData: group,
  flatsCountList: fc.array(
    fc.record({
      label: fc.constantFrom('Все', 'Студии'),
      points: fc.array(fc.record({ date: fc.constant('2026-11-20'), count: fc.nat(500) }), { maxLength: 3 }),
    }),
    { maxLength: 3 },
  ),
  shortFlatSummaryList: fc.constant([]),
});

/** Every place in a value, as a path of keys. */
function places(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== 'object' || v === null) return [path];
  const inner = Array.isArray(v)
    ? v.flatMap((x, i) => places(x, [...path, i]))
    : Object.entries(v).flatMap(([k, x]) => places(x, [...path, k]));
  return [path, ...inner];
}

const BROKEN = ['x', 1.5, -3, null, true, [], {}, Number.NaN, undefined, 'extra-key'] as const;

function broken(v: unknown, at: (string | number)[], how: (typeof BROKEN)[number]): unknown {
  const copy = structuredClone(v) as Record<string | number, unknown>;
  if (at.length === 0) return how === 'extra-key' ? { ...copy, extra: 1 } : how;
  let o = copy;
  for (const k of at.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (how === 'extra-key') {
    const target = o[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>).unexpected = 1;
    else delete o[last];
  } else o[last] = how;
  return copy;
}

describe('the stats answer: the fast door equals the schema', () => {
  it('on valid answers: the same data', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const fast = parseStatsAnswer(a);
        const slow = statsResponseSchema.safeParse(a);
        expect(fast.success).toBe(true);
        expect(slow.success).toBe(true);
        expect(fast.data).toEqual(slow.data);
      }),
      { numRuns: 300 },
    );
  });

  it('on answers broken at any place: the same success, the same data or the same first issue', () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.constantFrom(...BROKEN), (a, n, how) => {
        const all = places(a);
        const v = broken(a, all[n % all.length], how);
        const fast = parseStatsAnswer(v);
        const slow = statsResponseSchema.safeParse(v);
        expect(fast.success).toBe(slow.success);
        if (slow.success) expect(fast.data).toEqual(slow.data);
        else expect(fast.error?.issues[0]).toEqual(slow.error.issues[0]);
      }),
      { numRuns: 2000 },
    );
  });
});
