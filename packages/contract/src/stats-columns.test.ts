import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatsResponse } from './api.js';
import {
  compactStats,
  expandStatsColumns,
  parseStatsColumns,
  STATS_GROUP_KEYS,
  statsColumnsSchema,
} from './stats-columns.js';
import { BROKEN, broken, places } from './values.testing.js';

// The columns carry what the seed's shape carries (expand ∘ compact = identity on answers such as the
// server makes: points in date order, no explicit null in a price map), and the fast door of the columns
// gives what the schema gives.

const DAYS = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23', '2026-11-24'];
const price = fc.double({ min: 1, max: 1e7, noNaN: true, noDefaultInfinity: true });
const map = fc.dictionary(fc.constantFrom('0', '1', '2', 'WHITE', 'null', '2027-12-31', 'Корпус "А"'), price);
/** A group's points on some of the days, in order. */
const points = fc.subarray(DAYS).chain((days) =>
  fc.tuple(
    ...days.map((date) =>
      fc.record({
        date: fc.constant(date),
        minMeterPrice: price,
        maxMeterPrice: price,
        avgMeterPrice: price,
        avgMeterPriceByFacing: map,
        avgMeterPriceBySettlementDate: map,
        avgMeterPriceByBuilding: map,
        avgMeterPriceByRoomsNumber: map,
      }),
    ),
  ),
);
const counts = fc
  .subarray(DAYS)
  .chain((days) =>
    fc.tuple(...days.map((date) => fc.record({ date: fc.constant(date), count: fc.nat(500) }))),
  );
const answer: fc.Arbitrary<StatsResponse> = fc.record({
  allRoomsData: fc.record({ points }),
  studioData: fc.record({ points }),
  oneRoomData: fc.record({ points }),
  twoRoomsData: fc.record({ points }),
  threeAndMoreRoomData: fc.record({ points }),
  flatsCountList: fc.array(fc.record({ label: fc.constantFrom('Все', 'Студии'), points: counts }), {
    maxLength: 3,
  }),
  shortFlatSummaryList: fc.constant([]),
});

describe('the stats answer in columns', () => {
  it('carries the same numbers as the seed’s shape: expand(compact(answer)) = answer', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const c = compactStats(a);
        expect(statsColumnsSchema.safeParse(c).success).toBe(true);
        expect(expandStatsColumns(c)).toEqual(a);
        // a day is in `dates` only when some series has it, and each column has a value a day
        const days = new Set([
          ...STATS_GROUP_KEYS.flatMap((g) => a[g].points.map((p) => p.date)),
          ...a.flatsCountList.flatMap((s) => s.points.map((p) => p.date)),
        ]);
        expect(c.dates).toEqual([...days].sort());
        // through JSON as sent
        expect(expandStatsColumns(JSON.parse(JSON.stringify(c)))).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });

  it('fast door = schema on valid columns: the same data', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const c = compactStats(a);
        const fast = parseStatsColumns(c);
        const slow = statsColumnsSchema.safeParse(c);
        expect(fast.success).toBe(true);
        expect(slow.success).toBe(true);
        expect(fast.data).toEqual(slow.data);
      }),
      { numRuns: 300 },
    );
  });

  it('fast door = schema on columns broken at any place: the same success, data or first issue', () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.constantFrom(...BROKEN), (a, n, how) => {
        const c = compactStats(a);
        const all = places(c);
        const v = broken(c, all[n % all.length], how);
        const fast = parseStatsColumns(v);
        const slow = statsColumnsSchema.safeParse(v);
        expect(fast.success).toBe(slow.success);
        if (slow.success) expect(fast.data).toEqual(slow.data);
        else expect(fast.error?.issues[0]).toEqual(slow.error.issues[0]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a column one day short is refused, naming `dates`', () => {
    const c = compactStats(fc.sample(answer, { numRuns: 1, seed: 3 })[0]);
    const bad = { ...c, dates: [...c.dates, '2026-12-01'] };
    const fast = parseStatsColumns(bad);
    expect(fast.success).toBe(false);
    expect(fast.error?.issues[0].path).toEqual(['dates']);
  });
});
