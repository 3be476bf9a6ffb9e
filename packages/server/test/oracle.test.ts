import { compactStats, expandStatsColumns, statsColumnsSchema } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineUnderTest } from './engine-harness.js';
import {
  oracleDiscounts,
  oracleEffective,
  oracleEvents,
  oracleLastDataDay,
  oraclePace,
  oraclePartialDays,
  oracleStats,
} from './oracle.js';
import { BASE, marketArb, shuffled } from './random-market.js';

function engineView(
  engine: EngineUnderTest,
  from: number,
  to: number,
  source?: Parameters<EngineUnderTest['stats']>[2],
  status: 'ALL' | 'AVAILABLE' = 'ALL',
) {
  const { series, summary } = engine.stats(from, to, source, status);
  return {
    groups: series.groups,
    counts: series.flatsCountList.map((s) => s.points),
    summary: summary.map(
      ({
        id,
        activeFlatsCount,
        maxMeterPrice,
        avgMeterPrice,
        minMeterPrice,
        maxDiscountLastDay,
        maxDiscount7Days,
        maxDiscount1Month,
        maxDiscount1Year,
      }) => ({
        id,
        activeFlatsCount,
        maxMeterPrice,
        avgMeterPrice,
        minMeterPrice,
        maxDiscountLastDay,
        maxDiscount7Days,
        maxDiscount1Month,
        maxDiscount1Year,
      }),
    ),
  };
}

/** Deep comparison allowing a cent of difference from a different summation order of float areas. */
function close(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected === 'number') {
    expect(typeof actual, path).toBe('number');
    expect(Math.abs((actual as number) - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      0.011,
    );
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path}.length`).toBe(expected.length);
    expected.forEach((e, i) => close((actual as unknown[])[i], e, `${path}[${i}]`));
    return;
  }
  if (expected && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const k of Object.keys(expected))
      close((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
    return;
  }
  expect(actual, path).toEqual(expected);
}

describe('oracle: the engine equals a brute-force reading of DESIGN §4 and §10.1–10.4', () => {
  it('on 220 random markets (flicker, gaps, partial scans, reserved lots, area changes, G = 1..3, C = 7..∞, shuffled import order)', () => {
    let partialSeen = 0;
    let areaEvents = 0;
    let reservedSeen = 0;
    fc.assert(
      fc.property(marketArb, ({ projects, grace, carry, fromOffset, length, orderSeed }) => {
        for (const raw of projects) {
          const from = BASE + fromOffset - 40;
          const to = from + length;
          const engine = new EngineUnderTest(grace, carry);
          for (const s of shuffled(raw, orderSeed)) engine.apply(s);
          // §10.4 first: the oracle reads the lists with partial scans completed, then §4 and §10.1–10.3
          const partial = oraclePartialDays(raw, carry);
          expect([...engine.model.partial].sort(), 'partial snapshots').toEqual([...partial].sort());
          partialSeen += partial.size;
          const snaps = oracleEffective(raw, grace, carry);
          const wantEvents = oracleEvents(snaps, grace, carry);
          expect(engine.eventKeys(engine.events)).toEqual(wantEvents);
          for (const [date, list] of wantEvents) {
            areaEvents += list.filter((e) => e.startsWith('AREA_CHANGED')).length;
            // a partial scan removes nothing
            if (partial.has(Date.parse(date) / 86_400_000))
              expect(list.filter((e) => e.startsWith('REMOVED'))).toEqual([]);
          }
          for (const status of ['ALL', 'AVAILABLE'] as const) {
            const expected = oracleStats(snaps, grace, from, to, carry, status);
            const expectedSummary = [...expected.summary].sort((a, b) =>
              String(a.id).localeCompare(String(b.id)),
            );
            const actual = engineView(engine, from, to, undefined, status);
            close(actual.groups, expected.groups, `${status} groups`);
            close(actual.counts, expected.counts, `${status} counts`);
            close(
              [...actual.summary].sort((a, b) => a.id.localeCompare(b.id)),
              expectedSummary,
              `${status} summary`,
            );
            if (status === 'ALL')
              reservedSeen += expected.counts[6]?.reduce((sum, p) => sum + p.count, 0) ?? 0;
            // §4.3 discounts on A = the last data day ≤ to, for one of the four periods
            const a = oracleLastDataDay(snaps, to, carry);
            if (a !== null) {
              const period = (['DAY', 'WEEK', 'MONTH', 'YEAR'] as const)[orderSeed % 4];
              const want = oracleDiscounts(snaps, grace, a, period, carry, status);
              const got = engine.discounts(a, period, status);
              const byDiscount = (x: { id: string; discount: number }, y: { id: string; discount: number }) =>
                y.discount - x.discount || x.id.localeCompare(y.id);
              close([...got.flats].sort(byDiscount), want, `${status} discounts`);
              expect(got.project.activeFlats).toBe(
                oracleStats(snaps, grace, a, a, carry, status).counts[0][0].count,
              );
              expect(got.project.discountedFlats).toBe(want.length);
              close(
                got.project.maxDiscountPercent,
                Math.round(Math.max(0, ...want.map((w) => w.discount)) * 100) / 100,
                'max',
              );
              close(
                got.project.avgDiscountPercent,
                want.length
                  ? Math.round((want.reduce((s, w) => s + w.discount, 0) / want.length) * 100) / 100
                  : 0,
                'avg',
              );
            }
            // the JSON the API writes from per-snapshot fragments is the same response, key for key
            const { objects, parsedJson, columns } = engine.responses(from, to, status);
            expect(parsedJson).toEqual(objects);
            // and so are the web's columns (§12.2): the same numbers, the same days, the same keys
            expect(statsColumnsSchema.safeParse(columns).success).toBe(true);
            expect(expandStatsColumns(columns)).toEqual(objects);
            expect(columns).toEqual(compactStats(objects));
            // the full recompute (rebuild) agrees with the incremental state
            const rebuilt = engine.rebuilt();
            close(engineView(engine, from, to, rebuilt, status), actual, `${status} rebuild`);
            expect(engine.eventKeys(rebuilt.events)).toEqual(engine.eventKeys(engine.events));
          }
        }
      }),
      { numRuns: 220, seed: 20261123 },
    );
    // the random markets exercise what §10.2–10.4 add, not only the old rules
    expect(partialSeen).toBeGreaterThan(20);
    expect(areaEvents).toBeGreaterThan(20);
    expect(reservedSeen).toBeGreaterThan(100);
    // CPU-bound brute force: alone it takes ~25 s; on two busy cores in CI much longer
  }, 600_000);

  it('§10.5 pace and §10.6 index on 220 random markets: windows before the data, removals that come back, area changes', () => {
    let gone = 0;
    let comeBacks = 0;
    let moved = 0;
    let points = 0;
    fc.assert(
      fc.property(marketArb, ({ projects, grace, carry, fromOffset, length, orderSeed }) => {
        for (const raw of projects) {
          const from = BASE + fromOffset - 40;
          const to = from + length;
          const engine = new EngineUnderTest(grace, carry);
          for (const s of shuffled(raw, orderSeed)) engine.apply(s);
          const sorted = [...raw].sort((a, b) => a.day - b.day);
          const snaps = oracleEffective(raw, grace, carry);
          const rebuilt = engine.rebuilt();
          for (const status of ['ALL', 'AVAILABLE'] as const) {
            const want = oraclePace(sorted, snaps, grace, carry, from, to, status);
            const got = engine.pace(from, to, status);
            // the project's pace (POST /api/project/pace) is exact
            expect(got.series, `${status} pace`).toEqual(want.map(({ index, avgMeterPrice, ...p }) => p));
            // the market's way (a summary, recomputed as a union of one) likewise, with its index and ppm
            close(got.union, want, `${status} union`);
            if (status === 'ALL')
              close(
                got.index,
                want.map((p) => ({ date: p.date, index: p.index })),
                'index',
              );
            // a rebuild reads the same
            expect(engine.pace(from, to, status, rebuilt).series, `${status} rebuild`).toEqual(got.series);
            points += want.length;
            for (const p of want) {
              gone += p.gone30;
              if (p.index !== 100) moved++;
            }
          }
          // removals that came back: a REMOVED event of a flat active again later
          for (const [day, events] of engine.events)
            for (const e of events)
              if (
                e.kind === 'REMOVED' &&
                [...engine.events].some(
                  ([d, l]) => d > day && l.some((x) => x.kind === 'NEW' && x.flatId === e.flatId),
                )
              )
                comeBacks++;
        }
      }),
      { numRuns: 220, seed: 20261124 },
    );
    expect(points).toBeGreaterThan(5_000);
    expect(gone).toBeGreaterThan(200);
    expect(comeBacks).toBeGreaterThan(20);
    expect(moved).toBeGreaterThan(500);
  }, 600_000);
});
