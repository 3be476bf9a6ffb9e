import { gunzipSync, gzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
import type { FairFit } from '../analytics/hedonic.js';
import type { HedonicLink } from '../analytics/hedonic-index.js';
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

/** zlib's smallest output chunk, and the largest a kept body's trailer is trusted for. */
const MIN_CHUNK = 64;
const MAX_CHUNK = 64 * 1024 * 1024;
/** Deflate's greatest ratio (~1032:1): a trailer saying more than this of its body is not believed. */
const MAX_RATIO = 1032;

/**
 * A kept gzip body inflated into one buffer of its size. The gzip trailer says the inflated size (ISIZE,
 * mod 2^32); `gunzipSync` otherwise inflates into 16 KB chunks, each a fresh allocation, and joins them —
 * half of the inflation's time on a first request (a 3-year project's 36 months, 3.3 MB: ~100 → ~50 ms cold).
 * A trailer that lies costs no more than gunzip: a body of several members is inflated in chunks again (zlib
 * grows the output as needed), a damaged one allocates no more than its bytes could hold and fails as gunzip does.
 */
export function inflate(body: Uint8Array): Buffer {
  const size =
    body.length >= 18
      ? Buffer.from(body.buffer, body.byteOffset, body.length).readUInt32LE(body.length - 4)
      : 0;
  const chunk = Math.min(MAX_CHUNK, body.length * MAX_RATIO + MIN_CHUNK, size + 1);
  return gunzipSync(body, { chunkSize: Math.max(MIN_CHUNK, chunk) });
}

/** A union's kept span (`market_span.body`, analytics/pace-union.ts): gzipped JSON, made the same way each time. */
export const encodeSpan = (s: UnionSpan): Buffer => gzipSync(JSON.stringify(s), { level: 1 });
export const decodeSpan = (body: Uint8Array): UnionSpan =>
  JSON.parse(inflate(body).toString('utf8')) as UnionSpan;

/** Doubles of a kept hedonic link (`hedonic_link.body`): period, previous, has previous, change, variance, … */
const LINK_DOUBLES = 10;

/** A segment's links as little-endian doubles, ten a link: the same bits read back. */
export function encodeLinks(links: readonly HedonicLink[]): Buffer {
  const out = new Float64Array(links.length * LINK_DOUBLES);
  links.forEach((l, i) => {
    out.set(
      [
        l.period,
        l.previous ?? 0,
        l.previous === null ? 0 : 1,
        l.change,
        l.variance,
        l.observations,
        l.projects,
        l.avgMeterPrice,
        l.previousAvgMeterPrice ?? 0,
        l.dropped,
      ],
      i * LINK_DOUBLES,
    );
  });
  return Buffer.from(out.buffer);
}

export function decodeLinks(body: Uint8Array): HedonicLink[] {
  const d = new Float64Array(body.byteLength / 8);
  new Uint8Array(d.buffer).set(body);
  const links: HedonicLink[] = [];
  for (let at = 0; at < d.length; at += LINK_DOUBLES) {
    const has = d[at + 2] === 1;
    links.push({
      period: d[at],
      previous: has ? d[at + 1] : null,
      change: d[at + 3],
      variance: d[at + 4],
      observations: d[at + 5],
      projects: d[at + 6],
      avgMeterPrice: d[at + 7],
      previousAvgMeterPrice: has ? d[at + 8] : null,
      dropped: d[at + 9],
    });
  }
  return links;
}

/**
 * What a kept segment's windows were fitted from (`hedonic_link.windows`, use-cases/hedonic-windows.ts): the
 * first period, then two 32-bit hashes a period, little-endian.
 */
export interface LinkWindows {
  first: number;
  hashes: Uint32Array;
}

export function encodeWindows(w: LinkWindows): Buffer {
  const out = Buffer.alloc(4 + w.hashes.length * 4);
  out.writeInt32LE(w.first, 0);
  for (let i = 0; i < w.hashes.length; i++) out.writeUInt32LE(w.hashes[i], 4 + i * 4);
  return out;
}

export function decodeWindows(bytes: Uint8Array): LinkWindows {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashes = new Uint32Array((b.length - 4) / 4);
  for (let i = 0; i < hashes.length; i++) hashes[i] = b.readUInt32LE(4 + i * 4);
  return { first: b.readInt32LE(0), hashes };
}

/**
 * The latest window's fit of a kept place (`hedonic_link.fit`, what a flat's fair price reads): its last month,
 * then its periods and their δ, β, and each project's id and effect, as little-endian doubles — the same bits
 * read back.
 */
export function encodeFairFit(month: number, fit: FairFit): Buffer {
  const periods = [...fit.delta.keys()];
  const out = new Float64Array(4 + periods.length * 2 + fit.beta.length + fit.projectEffect.size * 2);
  out.set([month, periods.length, fit.beta.length, fit.projectEffect.size]);
  let at = 4;
  for (const p of periods) {
    out.set([p, fit.delta.get(p)!], at);
    at += 2;
  }
  out.set(fit.beta, at);
  at += fit.beta.length;
  for (const [id, effect] of fit.projectEffect) {
    out.set([id, effect], at);
    at += 2;
  }
  return Buffer.from(out.buffer);
}

export function decodeFairFit(body: Uint8Array): { month: number; fit: FairFit } {
  const d = new Float64Array(body.byteLength / 8);
  new Uint8Array(d.buffer).set(body);
  const [month, periods, betas, projects] = d;
  let at = 4;
  const delta = new Map<number, number>();
  for (let i = 0; i < periods; i++, at += 2) delta.set(d[at], d[at + 1]);
  const beta = d.slice(at, at + betas);
  at += betas;
  const projectEffect = new Map<number, number>();
  for (let i = 0; i < projects; i++, at += 2) projectEffect.set(d[at], d[at + 1]);
  return { month, fit: { delta, beta, projectEffect } };
}
