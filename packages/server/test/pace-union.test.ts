import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DayTable, medianOfSlots } from '../src/analytics/day-parts.js';
import { DayParts, rankSummaryOf, unionLast } from '../src/analytics/pace-last.js';
import { paceSummariesBy, paceSummary } from '../src/analytics/pace-summary.js';
import {
  periodOf,
  type UnionPoint,
  unionDaySums,
  unionIndex,
  unionPace,
  unionSpan,
  unionSpanSteps,
} from '../src/analytics/pace-union.js';
import { packSummary } from '../src/analytics/packed-summary.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { covers, joinRankMonths, rankMonths, rankStart, readFrom } from '../src/db/kept-rank.js';
import type { OracleSnapshot } from './oracle.js';
import { referenceUnion, timelineOf } from './pace-reference.js';
import { referenceSweep } from './pace-union-sweep-reference.js';
import { BASE, projectArb } from './random-market.js';

// A developer's or the market's pace and index are recomputed over the union of its flats (§10.5–10.6),
// from each project's summary: held to the words read day by day, and to the project's own series.

const FILTERS: Record<string, (r: FlatRecord) => boolean> = {
  all: () => true,
  one: (r) => r.rooms === 1,
  'reserved-out': (r) => r.status !== 'RESERVED',
};

/** Equal but for the last rounding of two floating figures summed in another order. */
function expectSame(actual: UnionPoint[], expected: UnionPoint[]) {
  expect(actual.map((p) => ({ ...p, index: 0, avgMeterPrice: 0 }))).toEqual(
    expected.map((p) => ({ ...p, index: 0, avgMeterPrice: 0 })),
  );
  actual.forEach((p, i) => {
    expect(Math.abs(p.index - expected[i].index)).toBeLessThanOrEqual(0.011);
    if (expected[i].avgMeterPrice === null) expect(p.avgMeterPrice).toBeNull();
    else expect(Math.abs(p.avgMeterPrice! - expected[i].avgMeterPrice!)).toBeLessThanOrEqual(0.011);
  });
}

/** Random projects' timelines, each shifted to start on another day. */
const shiftedTimelines = (projects: [OracleSnapshot[], number][], grace: number, carry: number) =>
  projects.map(([snaps, shift]) =>
    timelineOf(
      snaps.map((s) => ({ ...s, day: s.day + shift })),
      grace,
      carry,
    ),
  );

describe('§10.5–10.6 over a union of projects', () => {
  it('the sweep equals the reference sweep (before it was made fast) to the bit, index sums too', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(projectArb, fc.integer({ min: -120, max: 120 })), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1, 2),
        fc.constantFrom(7, 31, 10_000),
        fc.integer({ min: -150, max: 250 }),
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom(...Object.keys(FILTERS)),
        (projects, grace, carry, start, length, filter) => {
          const summaries = shiftedTimelines(projects, grace, carry).map((t) =>
            paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS[filter]),
          );
          const fast = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          const slow = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          const from = BASE + start;
          expect(unionPace(summaries, from, from + length, fast)).toEqual(
            referenceSweep(summaries, from, from + length, slow),
          );
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a union of many projects (its medians’ events added up by day and value) equals the reference sweep to the bit', () => {
    let grids = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(projectArb, fc.integer({ min: -3, max: 3 })), { minLength: 30, maxLength: 50 }),
        fc.integer({ min: -5, max: 60 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(...Object.keys(FILTERS)),
        (projects, start, length, filter) => {
          const summaries = shiftedTimelines(projects, 1, 31).map((t) =>
            paceSummary(t.flats, t.events, t.firstSeen, t.dates, 31, FILTERS[filter]),
          );
          const from = BASE + start;
          const fast = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          const slow = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          expect(unionPace(summaries, from, from + length, fast)).toEqual(
            referenceSweep(summaries, from, from + length, slow),
          );
          expect(fast).toEqual(slow);
          // the first presences' events were added up in a table (union-sweep.ts: smaller than the events)
          const used = summaries.filter((x) => x.dates.length > 0).map(packSummary);
          if (used.length === 0) return;
          let minDay = Math.min(...used.map((x) => x.dates[0]));
          for (const x of used)
            for (let j = 0; j < x.delta.length; j += 2) minDay = Math.min(minDay, x.delta[j]);
          const deltas = used.reduce((sum, x) => sum + x.delta.length / 2, 0);
          if ((length + 1) * (from + length - minDay + 1) <= 4 * deltas) grids++;
        },
      ),
      { numRuns: 100, seed: 20261207 },
    );
    expect(grids).toBeGreaterThan(30);
  });

  it('a period of a union’s whole span (held for the market) is the union’s pace over that period, to the bit', () => {
    let chained = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(projectArb, fc.integer({ min: -120, max: 120 })), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1, 2),
        fc.constantFrom(7, 31, 10_000),
        fc.array(fc.tuple(fc.integer({ min: -150, max: 250 }), fc.integer({ min: 0, max: 400 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom(...Object.keys(FILTERS)),
        (projects, grace, carry, periods, filter) => {
          const summaries = shiftedTimelines(projects, grace, carry).map((t) =>
            paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS[filter]),
          );
          const span = unionSpan(summaries);
          for (const [offset, length] of periods) {
            const from = BASE + offset;
            const expected = unionPace(summaries, from, from + length);
            expect(periodOf(span, from, from + length)).toEqual(expected);
            if (expected.some((p) => p.index !== 100)) chained++;
          }
        },
      ),
      { numRuns: 300 },
    );
    // periods whose index moved: the chain is exercised, not only its start
    expect(chained).toBeGreaterThan(50);
  });

  it('the span in steps (a server sweeps in slices of its thread) is the same span, a step at least a project', () => {
    fc.assert(
      fc.property(
        fc.array(projectArb, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(...Object.keys(FILTERS)),
        (projects, filter) => {
          const summaries = shiftedTimelines(
            projects.map((p) => [p, 0] as [typeof p, number]),
            1,
            31,
          ).map((t) => paceSummary(t.flats, t.events, t.firstSeen, t.dates, 31, FILTERS[filter]));
          const steps = unionSpanSteps(summaries);
          let yielded = 0;
          let r = steps.next();
          for (; !r.done; r = steps.next()) yielded++;
          expect(r.value).toEqual(unionSpan(summaries));
          // a step a project with data (its part, its index sums) and the three sorts of the medians' events
          const used = summaries.filter((x) => x.dates.length > 0).length;
          if (used > 0) expect(yielded).toBeGreaterThanOrEqual(2 * used + 3);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('on 200 random unions of 1–4 projects (gaps, flicker, partial scans) equals the day-by-day reading', () => {
    let points = 0;
    let gone = 0;
    let moved = 0;
    let rereads = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(projectArb, fc.integer({ min: -40, max: 40 })), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(1, 2),
        fc.constantFrom(7, 31, 10_000),
        fc.integer({ min: -60, max: 200 }),
        fc.integer({ min: 0, max: 300 }),
        fc.constantFrom(...Object.keys(FILTERS)),
        (projects, grace, carry, fromOffset, length, filter) => {
          // projects whose lists start on different days
          const timelines = shiftedTimelines(projects, grace, carry);
          const accept = FILTERS[filter];
          const summaries = timelines.map((t) =>
            paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, accept),
          );
          const from = BASE + fromOffset;
          const to = from + length;
          const union = unionPace(summaries, from, to);
          expectSame(union, referenceUnion(timelines, from, to, carry, accept));
          // the ranking's last day, read without the sweep from the kept form, is the sweep's last point
          const last = union.at(-1);
          const { medianStockAge: _age, ...lastPoint } = last ?? { medianStockAge: null };
          // as a ranking reads the kept form: the months that reach its window, as the reader cuts them
          // (from the month of from − 31) and at the least (the months reaching from − 31 itself)
          const keptFrom = (cut: number) =>
            summaries.map((s) =>
              joinRankMonths(
                rankMonths(rankSummaryOf(s))
                  .filter((m) => m.reach >= cut)
                  .map((m) => m.body),
              ),
            );
          // first from rankStart(from, to), then from readFrom(from) a project whose window that misses
          const start = rankStart(from, to);
          const first = keptFrom(start);
          const wider = keptFrom(readFrom(from));
          const kept = first.map((k, i) => (covers(k, start, from, to) ? k : wider[i]));
          if (first.some((k, i) => k !== kept[i])) rereads++;
          expect(unionLast(kept, from, to)).toEqual(last ? lastPoint : null);
          expect(unionLast(wider, from, to)).toEqual(last ? lastPoint : null);
          expect(unionLast(keptFrom(from - 31), from, to)).toEqual(last ? lastPoint : null);
          // with the projects' days read once for several unions, as a ranking reads them
          const parts = new DayParts();
          kept.forEach((k) => unionLast([k], from, to, parts));
          expect(unionLast(kept, from, to, parts)).toEqual(last ? lastPoint : null);
          // with the union's day sums made once from the window's month to its end, for any later period
          const used = kept.filter((k) => k.dates.length > 0);
          const end = Math.max(from, ...used.map((k) => k.ends[k.ends.length - 1]));
          const sums = unionDaySums(used, start, end) ?? undefined;
          expect(unionLast(kept, from, to, parts, sums)).toEqual(last ? lastPoint : null);
          // its figures on a day added up once under a key naming its members: a period ending on the same
          // day takes them, one ending on another day adds up its own — each as a fresh reading
          const later = Math.min(from + 3, to);
          const earlier = to - 5;
          expect(unionLast(kept, from, to, parts, sums, 'union')).toEqual(last ? lastPoint : null);
          expect(unionLast(kept, later, to, parts, undefined, 'union')).toEqual(unionLast(kept, later, to));
          expect(unionLast(kept, from, earlier, parts, undefined, 'union')).toEqual(
            unionLast(kept, from, earlier),
          );
          expect(unionLast(kept, later, to, parts, undefined, 'union')).toEqual(unionLast(kept, later, to));
          // each project alone on another day: its slot's figures and median of that day's table
          for (const k of kept)
            expect(unionLast([k], from, earlier, parts)).toEqual(unionLast([k], from, earlier));
          // and each project alone (a ranking row), by its own shorter path
          kept.forEach((k, i) => {
            const own = unionPace([summaries[i]], from, to).at(-1);
            const { medianStockAge: _a, ...ownLast } = own ?? { medianStockAge: null };
            expect(unionLast([k], from, to)).toEqual(own ? ownLast : null);
          });
          // the index alone reads the same
          expect(unionIndex(summaries, from, to)).toEqual(
            union.map((p) => ({ date: p.date, index: p.index })),
          );
          points += union.length;
          for (const p of union) {
            gone += p.gone30;
            if (p.index !== 100) moved++;
          }
        },
      ),
      { numRuns: 200, seed: 1016 },
    );
    expect(points).toBeGreaterThan(2_000);
    expect(gone).toBeGreaterThan(100);
    expect(moved).toBeGreaterThan(100);
    // some rankings read a project again from the month of from − 31 (its data end early in the period)
    expect(rereads).toBeGreaterThan(5);
  }, 180_000);

  it('the median of many lists (a whole market’s days on market) counted by value equals the sorted one', () => {
    let counted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: -5, max: 3_000 }), { maxLength: 400, size: 'max' }), {
          maxLength: 12,
          size: 'max',
        }),
        (lists) => {
          const all = lists.flat().sort((a, b) => a - b);
          const h = all.length >> 1;
          const expected = all.length === 0 ? null : all.length % 2 ? all[h] : (all[h - 1] + all[h]) / 2;
          // the lists as runs of a day's table, in slots of another order, some slots not asked for
          const table = new DayTable(0, 2 * lists.length + 1);
          table.pool = Int32Array.from([7, ...lists.flat(), 7]);
          let at = 1;
          const slots = lists.map((list, i) => {
            const slot = 2 * (lists.length - i);
            table.onStart[slot] = at;
            at += list.length;
            table.onEnd[slot] = at;
            return slot;
          });
          table.onStart[1] = 0;
          table.onEnd[1] = 1;
          expect(medianOfSlots(table, slots)).toBe(expected);
          if (all.length > 256) counted++;
        },
      ),
      { numRuns: 300, seed: 1125 },
    );
    // most cases went by the counting path
    expect(counted).toBeGreaterThan(150);
  });

  it('summaries by a partition of the flats (the summary table rows) equal one filter per part', () => {
    let parts = 0;
    fc.assert(
      fc.property(projectArb, fc.constantFrom(7, 31, 10_000), (snaps, carry) => {
        const t = timelineOf(snaps, 2, carry);
        // rooms × finish of the lots not reserved, as the table's rows with «только свободные»
        const keyOf = (r: FlatRecord) => (r.status === 'RESERVED' ? undefined : `${r.rooms}|${r.facing}`);
        const by = paceSummariesBy(t.flats, t.events, t.firstSeen, t.dates, carry, keyOf);
        const keys = new Set(t.flats.flat().map((s) => keyOf(s.rec)));
        keys.delete(undefined);
        expect(new Set(by.keys())).toEqual(keys);
        for (const key of keys)
          expect(by.get(key!)).toEqual(
            paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, (r) => keyOf(r) === key),
          );
        parts += keys.size;
      }),
      { numRuns: 200, seed: 1018 },
    );
    expect(parts).toBeGreaterThan(400);
  }, 120_000);

  it('the index of a union whose prices never change is 100 everywhere; +x % per list on every flat gives (1+x)^n', () => {
    const flats = (price: (k: number) => number, days: number[]) =>
      days.map((day, k) => ({
        day,
        complete: false,
        flats: new Map<string, FlatRecord>(
          Array.from({ length: 5 }, (_, i) => [
            `f${i}`,
            {
              building: '1',
              section: null,
              floor: i + 1,
              number: String(i),
              rooms: i % 3,
              area: 40 + i,
              facing: 'BLACK',
              settlementDate: null,
              price: Math.round(price(k) * (1 + i / 10)),
              basePrice: null,
              status: 'AVAILABLE',
              offer: null,
            } satisfies FlatRecord,
          ]),
        ),
      }));
    const daysA = [BASE, BASE + 7, BASE + 14, BASE + 21];
    const daysB = [BASE + 3, BASE + 10, BASE + 17, BASE + 21];
    const still = [flats(() => 10_000_000, daysA), flats(() => 7_000_000, daysB)].map((s) =>
      paceSummary(...args(timelineOf(s, 2, 31))),
    );
    for (const p of unionPace(still, BASE - 5, BASE + 40)) expect(p.index).toBe(100);
    // +1 % at every list of both projects: four steps each, on different days
    const rising = [
      flats((k) => 10_000_000 * 1.01 ** k, daysA),
      flats((k) => 7_000_000 * 1.01 ** k, daysB),
    ].map((s) => paceSummary(...args(timelineOf(s, 2, 31))));
    const series = unionPace(rising, BASE, BASE + 40);
    const last = series.at(-1)!;
    // every flat rose 3 times: A alone on days 7 and 14, B alone on 10 and 17 (each (1.01)^(1/2): half of
    // F moved), both on day 21; the days after the last lists have no data
    expect(last.date).toBe(series.find((p) => p.date === last.date && p.stock === 10)?.date);
    expect(last.index).toBeCloseTo(100 * 1.01 ** 3, 1);
  });
});

function args(t: ReturnType<typeof timelineOf>) {
  return [t.flats, t.events, t.firstSeen, t.dates, 31, () => true] as const;
}
