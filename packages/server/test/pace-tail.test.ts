import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paceSummary, WINDOW } from '../src/analytics/pace-summary.js';
import { nextTail, tailOf, tailServes, tailStart } from '../src/analytics/pace-tail.js';
import { appendedSpanSteps, unionPace, unionSpan } from '../src/analytics/pace-union.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { encodeSpan } from '../src/db/kept.js';
import { decodePacked, encodeSummary } from '../src/db/pace-form.js';
import { lowerBound } from '../src/lib/sorted.js';
import { drain } from '../src/lib/steps.js';
import { changedSince, encodeVersions } from '../src/use-cases/span-append.js';
import { timelineOf } from './pace-reference.js';
import { BASE, projectArb } from './random-market.js';

// A summary's tail (analytics/pace-tail.ts) stands for the whole summary in a union sweep from the day it
// serves on: the market's kept spans are brought up to date from their members' tails.

const FILTERS: Record<string, (r: FlatRecord) => boolean> = {
  all: () => true,
  one: (r) => r.rooms === 1,
  'reserved-out': (r) => r.status !== 'RESERVED',
};

const summariesArb = fc.record({
  projects: fc.array(
    fc.tuple(projectArb, fc.integer({ min: -120, max: 120 }), fc.double({ min: 0, max: 1, noNaN: true })),
    { minLength: 1, maxLength: 6 },
  ),
  carry: fc.constantFrom(7, 31, 10_000),
  filter: fc.constantFrom(...Object.keys(FILTERS)),
});

describe('a pace summary’s tail', () => {
  it('a union sweep over tails equals the sweep over the whole summaries from the day they serve, to the bit', () => {
    fc.assert(
      fc.property(
        summariesArb,
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 300 }),
        ({ projects, carry, filter }, after, length) => {
          const summaries = projects.map(([snaps, shift]) => {
            const t = timelineOf(
              snaps.map((s) => ({ ...s, day: s.day + shift })),
              1,
              carry,
            );
            return paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS[filter]);
          });
          // each tail from a snapshot of its own, through the stored form
          const tails = summaries.map((s, i) => {
            // from the snapshot on or before 31 to 150 days before its last day with data: a sweep over
            // the tail's last weeks
            const n = s.dates.length;
            const back = 31 + Math.floor(projects[i][2] * 120);
            const k0 = n ? Math.max(0, lowerBound(s.dates, s.ends[n - 1] - back + 1) - 1) : 0;
            const tail = decodePacked([encodeSummary(tailOf(s, k0))]);
            return { tail, serves: tailServes(tail, k0 === 0) };
          });
          const served = Math.max(BASE - 200, ...tails.map((t) => t.serves));
          const from = served + after;
          const whole = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          const cut = { days: [] as number[], lnSums: [] as number[], pairSums: [] as number[] };
          const expected = unionPace(summaries, from, from + length, whole);
          expect(
            unionPace(
              tails.map((t) => t.tail),
              from,
              from + length,
              cut,
            ),
          ).toEqual(expected);
          expect(cut).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is kept whole at its first snapshot, and its first presences are the summary’s added up', () => {
    fc.assert(
      fc.property(summariesArb, ({ projects, carry, filter }) => {
        for (const [snaps] of projects) {
          const t = timelineOf(snaps, 1, carry);
          const s = paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS[filter]);
          expect(tailOf(s, 0)).toEqual(s);
          const k0 = tailStart(s);
          const tail = tailOf(s, k0);
          expect(tail.dates).toEqual(s.dates.slice(k0));
          // the whole first presences: as many as the stock of the snapshot (each active flat once)
          const firsts = tail.firstDelta[0] ?? [];
          const total = firsts.filter((_, j) => j % 2 === 1).reduce((a, b) => a + b, 0);
          if (tail.dates.length) expect(total).toBe(s.stock[k0]);
          expect(tail.removals.every((r) => r.k >= 0 && r.k < tail.dates.length)).toBe(true);
          expect(tail.removals.length).toBe(s.removals.filter((r) => r.k >= k0).length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a tail brought up to date from the old one is the tail of the whole summary', () => {
    fc.assert(
      fc.property(
        projectArb,
        fc.integer({ min: 1, max: 11 }),
        fc.constantFrom(7, 31, 10_000),
        (snaps, keepK, carry) => {
          const t = timelineOf(snaps, 1, carry);
          const s = paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS.all);
          const n = s.dates.length;
          const k = Math.min(keepK, n - 1);
          if (k < 1) return;
          // the old summary: the snapshots before k; its tail from its own start
          const before = timelineOf(snaps.slice(0, k), 1, carry);
          const old = paceSummary(
            before.flats,
            before.events,
            before.firstSeen,
            before.dates,
            carry,
            FILTERS.all,
          );
          const t0 = tailStart(old);
          const oldTail = tailOf(old, t0);
          // the first snapshot a change from k rewrites (derive/pace.ts: the one before it, and back over the
          // removals whose 30 days reach it), or any before
          const last = lowerBound(s.dates, Math.min(s.dates[k - 1], s.dates[k] - WINDOW));
          for (let kP = 0; kP <= last; kP++) {
            const next = nextTail(s, kP, k, { tail: oldTail, t0 });
            // the tail as a rebuild makes it, unless it would begin before the old one (made from the whole)
            if (kP > 0 && (t0 > tailStart(s) || t0 >= k)) expect(next).toBeNull();
            else expect(next).toEqual(tailOf(s, tailStart(s)));
          }
          expect(nextTail(s, 1, t0, { tail: oldTail, t0 })).toBeNull();
          expect(nextTail(s, 1, k, null)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a span brought up to date from its members’ tails is the span of their whole summaries, to the bit', () => {
    fc.assert(
      fc.property(
        summariesArb,
        fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        ({ projects, carry, filter }, cuts) => {
          // each project's old summary: its first lists; the new one: all of them (some unchanged)
          const made = projects.map(([snaps, shift], i) => {
            const moved = snaps.map((x) => ({ ...x, day: x.day + shift }));
            const m = Math.max(1, Math.ceil(cuts[i] * moved.length));
            const summaryOf = (list: typeof moved) => {
              const t = timelineOf(list, 1, carry);
              return paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, FILTERS[filter]);
            };
            return { old: summaryOf(moved.slice(0, m)), now: summaryOf(moved) };
          });
          // the first snapshot whose entries moved (but for the carried end before it and the days back)
          let since = Number.POSITIVE_INFINITY;
          for (const { old, now } of made) {
            const same = (k: number) =>
              k < old.dates.length &&
              old.dates[k] === now.dates[k] &&
              old.stock[k] === now.stock[k] &&
              Object.is(old.priceSum[k], now.priceSum[k]) &&
              Object.is(old.lnSum[k], now.lnSum[k]) &&
              old.fresh[k] === now.fresh[k] &&
              old.pairs[k] === now.pairs[k] &&
              JSON.stringify(old.firstDelta[k]) === JSON.stringify(now.firstDelta[k]) &&
              JSON.stringify(old.removals.filter((r) => r.k === k).map((r) => r.flatId)) ===
                JSON.stringify(now.removals.filter((r) => r.k === k).map((r) => r.flatId));
            let k = 0;
            while (k < now.dates.length && same(k)) k++;
            if (k === now.dates.length && old.dates.length === now.dates.length) continue;
            since = Math.min(since, k > 0 ? now.dates[k - 1] : Number.NEGATIVE_INFINITY);
          }
          const whole = unionSpan(made.map((p) => p.now));
          const old = unionSpan(made.map((p) => p.old));
          // every tail serves the day the sweep starts on: from the snapshot 30 days before it
          const start = old.days[old.days.findLastIndex((d) => d < since)] ?? Number.NEGATIVE_INFINITY;
          const tails = made.map(({ now }) => {
            const k0 = Math.max(0, lowerBound(now.dates, start - WINDOW + 1) - 1);
            return decodePacked([encodeSummary(tailOf(now, k0))]);
          });
          const appended = drain(appendedSpanSteps(old, since, tails));
          if (since === Number.POSITIVE_INFINITY || start === Number.NEGATIVE_INFINITY) {
            if (appended) expect(encodeSpan(appended)).toEqual(encodeSpan(whole));
            return;
          }
          expect(appended).not.toBeNull();
          expect(JSON.stringify(appended)).toBe(JSON.stringify(whole));
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('the first day a kept span’s members moved (use-cases/span-append.ts)', () => {
  /** members as «id:version id:version …» */
  const members = (text: string) =>
    text.split(' ').map((pair) => {
      const [id, data_version] = pair.split(':').map(Number);
      return { id, data_version };
    });
  const changes = new Map([
    [
      1,
      new Map([
        [3, 19_800],
        [4, 19_790],
        [5, 19_810],
      ]),
    ],
    [2, new Map([[7, 19_805]])],
  ]);
  const since = (held: string, now: string) =>
    changedSince(encodeVersions(members(held)), members(now), changes);
  it('is the least noted day over every version each member moved through', () => {
    expect(since('1:3 2:7', '1:3 2:7')).toBe(Number.POSITIVE_INFINITY);
    expect(since('1:3 2:7', '1:4 2:7')).toBe(19_800);
    expect(since('1:3 2:7', '1:6 2:8')).toBe(19_790);
    expect(since('1:5 2:7', '1:6 2:8')).toBe(19_805);
  });
  it('cannot say when a version step has no note, the members are another set, or a version went back', () => {
    expect(since('1:3 2:7', '1:7 2:7')).toBeNull();
    expect(since('1:3 2:7', '1:3 3:7')).toBeNull();
    expect(since('1:3 2:7', '1:3')).toBeNull();
    expect(since('1:3 2:7', '1:2 2:7')).toBeNull();
  });
});
