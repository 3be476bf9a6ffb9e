import { gunzipSync, gzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
import type { PaceSummary } from '../analytics/pace-summary.js';

/**
 * The stored forms of the kept derived data (DESIGN §11.1): derive/ writes them, read/ reads them.
 *
 * A snapshot day's stats series (`series_day`), per status: each room group's point as the JSON that
 * follows its date in the response (`"minMeterPrice":…}`, empty for a group without flats) and the day's
 * counts, `\x01` between them. JSON escapes every control character, so the separator never occurs inside
 * a part.
 */
export const SERIES_SEPARATOR = '\x01';

/** A kept day read back: the groups' point fragments (null: no flats) and the counts' JSON endings. */
export interface SeriesDay {
  groups: (Buffer | null)[];
  counts: string[];
  /** bytes the fragments hold */
  bytes: number;
}

export function parseSeriesDay(text: string, groups: number): SeriesDay {
  const parts = text.split(SERIES_SEPARATOR);
  if (parts.length !== groups + 1) throw new Error('series_day: malformed day');
  let bytes = 0;
  const fragments = parts.slice(0, groups).map((p) => {
    if (!p) return null;
    const b = Buffer.from(p);
    bytes += b.length;
    return b;
  });
  const counts = parts[groups].split(',').map((c) => `"count":${c}}`);
  return { groups: fragments, counts, bytes };
}

/** The kept column of a status. */
export function seriesColumn(status: StatsStatus): 'series_all' | 'series_available' {
  return status === 'ALL' ? 'series_all' : 'series_available';
}

/** A kept pace summary (`pace_summary.body`): gzipped JSON. */
export const encodeSummary = (s: PaceSummary): Buffer => gzipSync(JSON.stringify(s));
export const decodeSummary = (body: Uint8Array): PaceSummary =>
  JSON.parse(gunzipSync(body).toString('utf8')) as PaceSummary;
