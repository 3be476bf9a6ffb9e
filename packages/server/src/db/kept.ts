import { gunzipSync, gzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
import type { RankSummary } from '../analytics/pace-last.js';
import type { PaceSummary } from '../analytics/pace-summary.js';

/**
 * The stored forms of the kept derived data (DESIGN §11.1): derive/ writes them, read/ reads them.
 *
 * A snapshot day's stats series (kept a month to a row, `series_month`), per status: each room group's point as the JSON that
 * follows its date in the response (`"minMeterPrice":…}`, empty for a group without flats) and the day's
 * counts, `\x01` between them. JSON escapes every control character, so the separator never occurs inside
 * a part.
 */
export const SERIES_SEPARATOR = '\x01';

/** A kept day read back: the groups' point fragments (null: no flats) and the counts' JSON endings. */
export interface SeriesDay {
  groups: (string | null)[];
  counts: string[];
}

export function parseSeriesDay(text: string, groups: number): SeriesDay {
  const parts = text.split(SERIES_SEPARATOR);
  if (parts.length !== groups + 1) throw new Error('series_month: malformed day');
  return {
    groups: parts.slice(0, groups).map((p) => p || null),
    counts: parts[groups].split(',').map((c) => `"count":${c}}`),
  };
}

/**
 * A month of a project's kept series days (`series_month`), per status: the days' texts joined by `\x02`
 * (which no day's text holds) and gzipped — consecutive days repeat their keys and most figures, so a month
 * keeps about a tenth of the bytes and a first request reads and inflates that much less.
 */
const DAY_SEPARATOR = '\x02';

export const encodeSeriesMonth = (texts: string[]): Buffer => gzipSync(texts.join(DAY_SEPARATOR));

export function decodeSeriesMonth(body: Uint8Array, days: number): string[] {
  const texts = gunzipSync(body).toString('utf8').split(DAY_SEPARATOR);
  if (texts.length !== days) throw new Error('series_month: malformed month');
  return texts;
}

/** The first day of the month of a day (days since 1970-01-01), the key of its `series_month` row. */
export function monthOf(day: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 86_400_000;
}

/** The kept column of a status. */
export function seriesColumn(status: StatsStatus): 'series_all' | 'series_available' {
  return status === 'ALL' ? 'series_all' : 'series_available';
}

/**
 * A kept bytea column as a select reads it: base64 text, turned into bytes by `bytes()`. PGlite parses a
 * bytea result in JavaScript (~80 ms a MB, most of a first stats request); base64 is decoded natively.
 */
export const base64 = (column: string, as = column) => `encode(${column}, 'base64') as ${as}`;
export const bytes = (text: string): Buffer => Buffer.from(text, 'base64');

/** A kept pace summary (`pace_summary.body`): gzipped JSON. */
export const encodeSummary = (s: PaceSummary): Buffer => gzipSync(JSON.stringify(s));
export const decodeSummary = (body: Uint8Array): PaceSummary =>
  JSON.parse(gunzipSync(body).toString('utf8')) as PaceSummary;

/**
 * A kept rank summary (`pace_summary.rank`, analytics/pace-last.ts) as flat little-endian arrays: a header
 * of counts (snapshots n, removals m, back days b, 0), then priceSum, areaSum, lnSum (float64 × n), then
 * dates, ends, stock, fresh, pairs (int32 × n), removalK, removalFirst (× m), backStart (× m + 1), back (× b).
 * Read back as views on one buffer: nothing to parse on a first request of the market.
 */
export function encodeRank(s: RankSummary): Buffer {
  const n = s.dates.length;
  const m = s.removalK.length;
  const b = s.back.length;
  const buffer = new ArrayBuffer(16 + 24 * n + 4 * (5 * n + 3 * m + 1 + b));
  new Int32Array(buffer, 0, 4).set([n, m, b, 0]);
  let at = 16;
  for (const a of [s.priceSum, s.areaSum, s.lnSum]) {
    new Float64Array(buffer, at, n).set(a);
    at += 8 * n;
  }
  for (const a of [
    s.dates,
    s.ends,
    s.stock,
    s.fresh,
    s.pairs,
    s.removalK,
    s.removalFirst,
    s.backStart,
    s.back,
  ]) {
    new Int32Array(buffer, at, a.length).set(a);
    at += 4 * a.length;
  }
  return Buffer.from(buffer);
}

export function decodeRank(body: Uint8Array): RankSummary {
  // copied: a driver's buffer need not be aligned for float64 views
  const buffer = new Uint8Array(body).buffer;
  const [n, m, b] = new Int32Array(buffer, 0, 4);
  let at = 16;
  const f64 = (count: number) => {
    const a = new Float64Array(buffer, at, count);
    at += 8 * count;
    return a;
  };
  const i32 = (count: number) => {
    const a = new Int32Array(buffer, at, count);
    at += 4 * count;
    return a;
  };
  if (body.length !== 16 + 24 * n + 4 * (5 * n + 3 * m + 1 + b))
    throw new Error('pace_summary.rank: malformed');
  const [priceSum, areaSum, lnSum] = [f64(n), f64(n), f64(n)];
  const [dates, ends, stock, fresh, pairs] = [i32(n), i32(n), i32(n), i32(n), i32(n)];
  return {
    dates,
    ends,
    stock,
    priceSum,
    areaSum,
    fresh,
    lnSum,
    pairs,
    removalK: i32(m),
    removalFirst: i32(m),
    backStart: i32(m + 1),
    back: i32(b),
  };
}
