import { gunzipSync, gzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
import type { UnionSpan } from '../analytics/pace-union.js';

/**
 * The stored forms of the kept derived data (DESIGN §11.1): derive/ writes them, read/ reads them. The stats
 * series are in kept-series.ts.
 */

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

/** A union's kept span (`market_span.body`, analytics/pace-union.ts): gzipped JSON, made the same way each time. */
export const encodeSpan = (s: UnionSpan): Buffer => gzipSync(JSON.stringify(s), { level: 1 });
export const decodeSpan = (body: Uint8Array): UnionSpan =>
  JSON.parse(gunzipSync(body).toString('utf8')) as UnionSpan;
