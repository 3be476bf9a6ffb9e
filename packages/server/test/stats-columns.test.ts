import {
  compactStats,
  expandStatsColumns,
  type StatsColumns,
  type StatsResponse,
} from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLabels, GROUPS } from '../src/analytics/stats.js';
import {
  columnsOfDays,
  columnsOfTexts,
  decodeColumnsMonth,
  encodeColumnsMonth,
  type SeriesDay,
  seriesDayOfText,
} from '../src/db/kept-columns.js';
import { layoutSeriesMonth, monthLayout, SERIES_SEPARATOR } from '../src/db/kept-series.js';
import { seriesDayText } from '../src/derive/series.js';
import { SeriesColumns } from '../src/read/stats-columns.js';
import { joined, SeriesJson } from '../src/read/stats-json.js';

/**
 * The columns read from the kept points' text (read/stats-columns.ts) without making numbers of them:
 * whatever the keys (Cyrillic, quotes, backslashes, control characters, digits) and the numbers (integers,
 * decimals, exponents), whatever the days (daily runs, carried days, gaps, groups without flats), the
 * answer expands to the seed's answer written from the same kept months.
 */
const KEYS = [
  '1',
  '10',
  'WHITE',
  'null',
  '2027-12-31',
  'Корпус «Север»',
  'A "quoted"',
  'back\\slash',
  'tab\tkey',
  'ё',
];
const number = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.double({ min: 1, max: 1e7, noNaN: true, noDefaultInfinity: true }).map((v) => Math.round(v * 100) / 100),
  fc.constantFrom(1e21, 5e-7, 0.1),
);
const map = fc.dictionary(fc.constantFrom(...KEYS), number, { maxKeys: 5 });
const point = fc.option(
  fc.record({
    minMeterPrice: number,
    maxMeterPrice: number,
    avgMeterPrice: number,
    avgMeterPriceByFacing: map,
    avgMeterPriceBySettlementDate: map,
    avgMeterPriceByBuilding: map,
    avgMeterPriceByRoomsNumber: map,
  }),
  { freq: 4 },
);
const snapshot = fc.record({
  /** days since the previous snapshot: 1 (daily), a few (carried), or beyond the carry limit (a gap) */
  step: fc.constantFrom(1, 1, 1, 3, 20),
  groups: fc.tuple(point, point, point, point, point),
  counts: fc.array(fc.nat(300), {
    minLength: countLabels('ALL').length,
    maxLength: countLabels('ALL').length,
  }),
});

function kept(snapshots: fc.infer<typeof snapshot>[]) {
  const days: number[] = [];
  let day = 20_000;
  for (const s of snapshots) {
    day += s.step;
    days.push(day);
  }
  const texts = snapshots.map((s) =>
    [...s.groups.map((p) => (p ? JSON.stringify(p).slice(1) : '')), s.counts.join(',')].join(
      SERIES_SEPARATOR,
    ),
  );
  // months of 30 snapshots, laid out as kept
  const months = () => {
    const out = [];
    for (let k = 0; k < days.length; k += 30)
      out.push(
        monthLayout(layoutSeriesMonth(days.slice(k, k + 30), texts.slice(k, k + 30)), days.slice(k, k + 30)),
      );
    return out;
  };
  const json = new SeriesJson(days, months, 14);
  // the columns kept by the same months
  const columns = () =>
    new SeriesColumns(json, () => {
      const out = [];
      for (let k = 0; k < days.length; k += 30)
        out.push({
          days: days.slice(k, k + 30),
          // through the stored form
          ...decodeColumnsMonth(
            encodeColumnsMonth(
              columnsOfTexts(texts.slice(k, k + 30), GROUPS.length, countLabels('ALL').length),
            ),
          ),
        });
      return out;
    });
  return { days, json, columns };
}

describe('stats in columns from the kept text', () => {
  it('expand(columns) = the seed’s answer from the same kept months, over any range', () => {
    fc.assert(
      fc.property(fc.array(snapshot, { minLength: 1, maxLength: 70 }), fc.nat(), fc.nat(), (snaps, a, b) => {
        const { days, json, columns: made } = kept(snaps);
        const span = days.at(-1)! - days[0] + 40;
        const from = days[0] - 10 + (a % span);
        const to = from + (b % span);
        const seed = JSON.parse(joined(json.response(from, to, '[]')).toString('utf8')) as StatsResponse;
        const columns = JSON.parse(joined(made().body(from, to, '[]')).toString('utf8')) as StatsColumns;
        expect(expandStatsColumns(columns)).toEqual(seed);
        expect(columns).toEqual(compactStats(seed));
      }),
      { numRuns: 300 },
    );
  });

  it('a whole month is sent as kept, an edge month cut; a second answer reads nothing again', () => {
    const snaps = fc.sample(fc.array(snapshot, { minLength: 40, maxLength: 40 }), { numRuns: 1, seed: 5 })[0];
    for (const s of snaps) s.step = 1;
    const { days, columns: made } = kept(snaps);
    const columns = made();
    const first = columns.body(days[0], days.at(-1)!, '[]');
    const held = columns.bytes;
    expect(held).toBeGreaterThan(0);
    const again = columns.body(days[5], days.at(-1)!, '[]');
    expect(columns.bytes).toBe(held);
    const parsed = JSON.parse(joined(again).toString('utf8')) as StatsColumns;
    expect(parsed.dates).toHaveLength(days.length - 5);
    expect(JSON.parse(joined(first).toString('utf8')).dates).toHaveLength(days.length);
  });
});

describe('the import’s columns from the day’s points (derive/series.ts)', () => {
  it('equal, to the byte, the columns read back from the day’s text', () => {
    fc.assert(
      fc.property(fc.array(snapshot, { minLength: 1, maxLength: 31 }), (snaps) => {
        const days: SeriesDay[] = snaps.map((s) => ({ points: s.groups, counts: s.counts }));
        // a day without any flat writes no counts
        if (snaps.length > 2) days[1] = { points: days[1].points.map(() => null), counts: [] };
        const texts = days.map(seriesDayText);
        const counts = countLabels('ALL').length;
        expect(encodeColumnsMonth(columnsOfDays(days, GROUPS.length, counts))).toBe(
          encodeColumnsMonth(columnsOfTexts(texts, GROUPS.length, counts)),
        );
        expect(texts.map((t) => seriesDayText(seriesDayOfText(t, GROUPS.length)))).toEqual(texts);
      }),
      { numRuns: 300 },
    );
  });
});
