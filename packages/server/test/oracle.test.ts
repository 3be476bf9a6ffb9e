import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineUnderTest } from './engine-harness.js';
import { oracleDiscounts, oracleEvents, oracleLastDataDay, oracleStats } from './oracle.js';
import { BASE, marketArb, shuffled } from './random-market.js';

function engineView(
  engine: EngineUnderTest,
  from: number,
  to: number,
  source?: Parameters<EngineUnderTest['stats']>[2],
) {
  const { series, summary } = engine.stats(from, to, source);
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

describe('oracle: the engine equals a brute-force reading of DESIGN §4', () => {
  it('on 220 random markets (flicker, attribute changes, G = 1..3, ranges around the data, shuffled import order)', () => {
    fc.assert(
      fc.property(marketArb, ({ projects, grace, carry, fromOffset, length, orderSeed }) => {
        for (const snaps of projects) {
          const from = BASE + fromOffset - 40;
          const to = from + length;
          const engine = new EngineUnderTest(grace, carry);
          for (const s of shuffled(snaps, orderSeed)) engine.apply(s);
          const expected = oracleStats(snaps, grace, from, to, carry);
          const expectedSummary = [...expected.summary].sort((a, b) =>
            String(a.id).localeCompare(String(b.id)),
          );
          const actual = engineView(engine, from, to);
          close(actual.groups, expected.groups, 'groups');
          close(actual.counts, expected.counts, 'counts');
          close(
            [...actual.summary].sort((a, b) => a.id.localeCompare(b.id)),
            expectedSummary,
            'summary',
          );
          expect(engine.eventKeys(engine.events)).toEqual(oracleEvents(snaps, grace, carry));
          // §4.3 discounts on A = the last data day ≤ to, for one of the four periods
          const a = oracleLastDataDay(snaps, to, carry);
          if (a !== null) {
            const period = (['DAY', 'WEEK', 'MONTH', 'YEAR'] as const)[orderSeed % 4];
            const want = oracleDiscounts(snaps, grace, a, period, carry);
            const got = engine.discounts(a, period);
            const byDiscount = (x: { id: string; discount: number }, y: { id: string; discount: number }) =>
              y.discount - x.discount || x.id.localeCompare(y.id);
            close([...got.flats].sort(byDiscount), want, 'discounts');
            expect(got.project.activeFlats).toBe(oracleStats(snaps, grace, a, a, carry).counts[0][0].count);
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
          const { objects, parsedJson } = engine.responses(from, to);
          expect(parsedJson).toEqual(objects);
          // the full recompute (rebuild) agrees with the incremental state
          const rebuilt = engine.rebuilt();
          close(engineView(engine, from, to, rebuilt), actual, 'rebuild');
          expect(engine.eventKeys(rebuilt.events)).toEqual(engine.eventKeys(engine.events));
        }
      }),
      { numRuns: 220, seed: 20261121 },
    );
    // CPU-bound brute force: alone it takes ~15 s; on two busy cores in CI much longer
  }, 300_000);
});
