import type { RoomGroup } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paceSummary } from '../src/analytics/pace-summary.js';
import { type PacePoint, projectPace, unionIndex } from '../src/analytics/pace-union.js';
import { GROUP_FILTERS } from '../src/analytics/stats.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { referenceIndex, referencePace, timelineOf } from './pace-reference.js';
import { BASE, projectArb } from './random-market.js';

// The engine's pace and index (a project's summary, as the routes read it) equal §10.5–10.6 read day by day, flat by flat.

describe("§10.5 pace and §10.6 index: a project's summary equals the snapshot-by-snapshot reading", () => {
  it('on 200 random projects (gaps, flicker, partial scans), ranges around the data, filters, C = 7..∞', () => {
    let points = 0;
    let gone = 0;
    let fresh = 0;
    fc.assert(
      fc.property(
        projectArb,
        fc.constantFrom(1, 2, 3),
        fc.constantFrom(7, 31, 10_000),
        fc.integer({ min: -60, max: 200 }),
        fc.integer({ min: 0, max: 300 }),
        fc.constantFrom('all', 'one', 'reserved-out'),
        (snaps, grace, carry, fromOffset, length, filter) => {
          const t = timelineOf(snaps, grace, carry);
          const accept =
            filter === 'one'
              ? (r: FlatRecord) => r.rooms === 1
              : filter === 'reserved-out'
                ? (r: FlatRecord) => r.status !== 'RESERVED'
                : () => true;
          const from = BASE + fromOffset;
          const to = from + length;
          // as POST /api/project/pace reads it: the summary of the filter, as a union of one
          const summary = paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, accept);
          const fast: PacePoint[] = projectPace(summary, from, to);
          expect(fast).toEqual(
            referencePace(t.flats, t.events, t.firstSeen, t.dates, from, to, carry, accept),
          );
          // §10.6 likewise, as POST /api/project/index reads it: each rooms group's summary, any status
          for (const group of ['all', 'one', 'threeAndMore'] as RoomGroup[]) {
            const ofGroup = paceSummary(t.flats, t.events, t.firstSeen, t.dates, carry, (r) =>
              GROUP_FILTERS[group](r.rooms),
            );
            expect(unionIndex([ofGroup], from, to)).toEqual(
              referenceIndex(t.flats, t.dates, from, to, carry, group),
            );
          }
          points += fast.length;
          for (const p of fast) {
            gone += p.gone30;
            fresh += p.new30;
          }
        },
      ),
      { numRuns: 200, seed: 105 },
    );
    // the random projects exercise every figure, not empty ranges
    expect(points).toBeGreaterThan(2_000);
    expect(gone).toBeGreaterThan(100);
    expect(fresh).toBeGreaterThan(100);
  }, 120_000);
});
