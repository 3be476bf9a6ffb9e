import { gunzipSync, gzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
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
