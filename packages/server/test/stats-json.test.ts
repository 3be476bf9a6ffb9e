import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { countLabels, GROUPS } from '../src/analytics/stats.js';
import {
  DAY_SEPARATOR,
  decodeSeriesMonth,
  encodeSeriesMonth,
  layoutSeriesMonth,
  type MonthLayout,
  monthLayout,
  SERIES_SEPARATOR,
} from '../src/db/kept-series.js';
import { fromDay } from '../src/lib/days.js';
import { joined, SeriesJson } from '../src/read/stats-json.js';

/**
 * The stats body sent as chunks (read/stats-json.ts): long runs of daily points are views of the kept
 * tracks, the rest is gathered. Whatever the cut, the bytes are one JSON document with every point.
 */
describe('stats body in chunks', () => {
  // 1,500 snapshot days: daily, then weekly (each carried six days), then a gap beyond the carry limit
  const days: number[] = [];
  for (let d = 19_000; d < 20_200; d++) days.push(d);
  for (let d = 20_200; d < 20_200 + 7 * 40; d += 7) days.push(d);
  for (let d = 20_600; d < 20_620; d++) days.push(d);
  const count = (k: number, c: number) => `"count":${(k * (c + 1)) % 97}}`;
  const point = (k: number, g: number) =>
    // a group without flats some days (no point), the studio group never on weekly days
    (k + g) % 11 === 0 || (g === 1 && days[k] >= 20_200)
      ? null
      : `"avgPrice":${200_000 + k * 7 + g},"n":${k % 13}}`;
  /** Snapshot k's kept text (db/kept.ts): the groups' fragments, then the counts. */
  const text = (k: number) =>
    [
      ...GROUPS.map((_, g) => point(k, g) ?? ''),
      countLabels('ALL')
        .map((_, c) => (k * (c + 1)) % 97)
        .join(','),
    ].join(SERIES_SEPARATOR);
  /** The kept months: 30 snapshots each (the reader's are calendar months), laid out as kept. */
  const chunks = () => {
    const out: number[][] = [];
    for (let k = 0; k < days.length; k += 30) out.push(days.slice(k, k + 30).map((_, i) => k + i));
    return out;
  };
  const months = () =>
    chunks().map((ks) =>
      monthLayout(
        layoutSeriesMonth(
          ks.map((k) => days[k]),
          ks.map(text),
        ),
        ks.map((k) => days[k]),
      ),
    );
  /** The same months in the layout kept before migration 23 (the days' texts), read through the layout. */
  const olderMonths = () =>
    chunks().map((ks) =>
      monthLayout(
        Buffer.from(ks.map(text).join(DAY_SEPARATOR)),
        ks.map((k) => days[k]),
      ),
    );

  /**
   * The points a group should have over [from, to]: each day from its snapshot, carried up to 14 days, none
   * after the last snapshot.
   */
  function expected(from: number, to: number, g: number, of: 'point' | 'count' = 'point') {
    const out: unknown[] = [];
    let k = -1;
    for (let day = from; day <= Math.min(to, days.at(-1)!); day++) {
      while (k + 1 < days.length && days[k + 1] <= day) k++;
      if (k < 0 || day - days[k] > 14) continue;
      const p = of === 'point' ? point(k, g) : count(k, g);
      if (p) out.push(JSON.parse(`{"date":"${fromDay(day)}",${p}`));
    }
    return out;
  }

  for (const [from, to] of [
    [19_000, 20_700],
    [19_000, 19_001],
    [19_000, 20_150],
    [19_500, 20_250],
    [20_190, 20_610],
    [18_000, 18_900],
  ] as const)
    it(`${fromDay(from)} … ${fromDay(to)}: every point, in one JSON document`, () => {
      const json = new SeriesJson(days, months, 14);
      const body = json.response(from, to, '[{"rooms":"1"}]');
      // a month kept in the older layout gives the same bytes
      const older = new SeriesJson(days, olderMonths, 14).response(from, to, '[{"rooms":"1"}]');
      expect(joined(older).equals(joined(body))).toBe(true);
      const whole = joined(body);
      expect(whole.length).toBe(body.length);
      const parsed = JSON.parse(whole.toString('utf8'));
      GROUPS.forEach((_, g) => {
        const key = Object.keys(parsed)[g];
        expect(parsed[key].points).toEqual(expected(from, to, g));
      });
      expect(parsed.shortFlatSummaryList).toEqual([{ rooms: '1' }]);
      expect(parsed.flatsCountList.map((c: { label: string }) => c.label)).toEqual(countLabels('ALL'));
      countLabels('ALL').forEach((_, c) => {
        expect(parsed.flatsCountList[c].points).toEqual(expected(from, to, c, 'count'));
      });
      if (to - from > 1000 && from < 19_500) {
        // the long daily runs are sent as views of the tracks, not gathered
        expect(body.chunks.length).toBeGreaterThan(2);
        expect(body.gathered).toBeLessThan(body.length / 2);
      }
    });

  it("a kept month round-trips to its days' texts, in either layout", () => {
    for (const ks of chunks().slice(0, 3)) {
      const ds = ks.map((k) => days[k]);
      const texts = ks.map(text);
      expect(decodeSeriesMonth(encodeSeriesMonth(ds, texts), ds)).toEqual(texts);
      expect(decodeSeriesMonth(gzipSync(texts.join(DAY_SEPARATOR)), ds)).toEqual(texts);
    }
  });

  it('months that do not hold the snapshots, or a month cut wrong, are an error, not a body', () => {
    const respond = (m: () => MonthLayout[]) => () =>
      new SeriesJson(days, m, 14).response(19_000, 20_700, '[]');
    expect(respond(months)).not.toThrow();
    expect(respond(() => months().slice(1))).toThrow(/do not hold/);
    expect(respond(() => [...months(), months()[0]])).toThrow(/do not hold/);
    const ds = days.slice(0, 30);
    const texts = ds.map((_, k) => text(k));
    // a day without one of its counts, a count too many, a month's bytes cut short
    const fewer = texts.map((t, i) => (i === 3 ? t.replace(/,\d+$/, '') : t));
    expect(() => layoutSeriesMonth(ds, fewer)).toThrow(/malformed/);
    expect(() => monthLayout(Buffer.from(fewer.join(DAY_SEPARATOR)), ds)).toThrow(/malformed/);
    const more = texts.map((t, i) => (i === 3 ? `${t},5` : t));
    expect(() => layoutSeriesMonth(ds, more)).toThrow(/malformed/);
    // a point longer than its length field holds
    const long = texts.map((t, i) =>
      i === 0 ? `"x":"${'a'.repeat(70_000)}"}${t.slice(t.indexOf(SERIES_SEPARATOR))}` : t,
    );
    expect(() => layoutSeriesMonth(ds, long)).toThrow(/65,535/);
    const laid = layoutSeriesMonth(ds, texts);
    expect(() => monthLayout(laid.subarray(0, laid.length - 1), ds)).toThrow(/malformed/);
    expect(() => monthLayout(laid, ds.slice(1))).toThrow(/malformed/);
  });
});
