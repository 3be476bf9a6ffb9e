import { gzipSync } from 'node:zlib';
import { fromDay } from '../lib/days.js';
import { inflate } from './kept.js';

/**
 * The kept stats series (DESIGN §11.1, `series_month`): a project's month of snapshot days under one status,
 * written by the import that changes it and read by the first stats request (read/stats-json.ts).
 *
 * A day's series is written as text while it is made (`SeriesDay` text): each room group's point as the
 * JSON that follows its date in the response (`"minMeterPrice":…}`, empty for a group without flats), then
 * the day's counts joined by commas, `\x01` between the parts. JSON escapes every control character, so the
 * separator never occurs inside a part.
 *
 * A month is kept laid out as the response sends it, gzipped: for each series (the groups' points, then
 * each count) the month's points one after another, `{"date":"…",…},` — so a first request joins a
 * month's bytes per series instead of cutting and copying each day's. The bytes (inflated):
 *
 *   0x00, version 1, groups G, counts C, days D (u16 LE), 0, 0,
 *   the length of each series' point on each day (u16 LE, series-major: G + C rows of D; 0: no point),
 *   each series' points in day order.
 *
 * An older month (before migration 23) is the days' texts joined by `\x02`; it is still read (`monthLayout`).
 */
export const SERIES_SEPARATOR = '\x01';
export const DAY_SEPARATOR = '\x02';

const MAGIC = 0x00;
const VERSION = 1;
const HEADER = 8;
/** `{"date":"YYYY-MM-DD",`: the same length for every day. */
export const DATE_BYTES = 21;
const COUNT_KEY = '"count":';

/** A month laid out (uncompressed): its series' point lengths and where each series' bytes start. */
export interface MonthLayout {
  bytes: Buffer;
  groups: number;
  counts: number;
  days: number;
  /** the length of series s's point on day i at `lengths[s·days + i]` */
  lengths: Uint16Array;
  /** where series s's bytes start in `bytes` (`at[G + C]` the end) */
  at: Int32Array;
}

/** How a point starts in the response: its date, `{"date":"YYYY-MM-DD",` (DATE_BYTES long). */
export const pointDate = (day: number) => `{"date":"${fromDay(day)}",`;

/** A month's day texts laid out as kept (uncompressed). */
export function layoutSeriesMonth(days: number[], texts: string[]): Buffer {
  if (days.length !== texts.length || days.length > 0xffff)
    throw new Error('series_month: days and texts differ');
  const parsed = texts.map((t) => {
    const parts = t.split(SERIES_SEPARATOR);
    return { groups: parts.slice(0, -1), counts: parts[parts.length - 1].split(',') };
  });
  const groups = parsed[0]?.groups.length ?? 0;
  const counts = parsed[0]?.counts.length ?? 0;
  const series: string[][] = [];
  for (let g = 0; g < groups; g++)
    series.push(parsed.map((p, i) => (p.groups[g] ? `${pointDate(days[i])}${p.groups[g]},` : '')));
  for (let c = 0; c < counts; c++)
    series.push(parsed.map((p, i) => `${pointDate(days[i])}${COUNT_KEY}${p.counts[c]}},`));
  if (
    parsed.some((p) => p.groups.length !== groups || p.counts.length !== counts || p.counts.some((c) => !c))
  )
    throw new Error('series_month: malformed day');
  const n = days.length;
  const lengths = new Uint16Array(series.length * n);
  const bodies = series.map((s, si) => {
    const b = Buffer.from(s.join(''), 'utf8');
    s.forEach((entry, i) => {
      const length = Buffer.byteLength(entry);
      if (length > 0xffff) throw new Error('series_month: a point longer than 65,535 bytes');
      lengths[si * n + i] = length;
    });
    return b;
  });
  const header = Buffer.alloc(HEADER);
  header[0] = MAGIC;
  header[1] = VERSION;
  header[2] = groups;
  header[3] = counts;
  header.writeUInt16LE(n, 4);
  return Buffer.concat([
    header,
    Buffer.from(lengths.buffer, lengths.byteOffset, lengths.byteLength),
    ...bodies,
  ]);
}

/** Reads a laid-out month's header and point lengths; an older month (texts) is laid out first. */
export function monthLayout(inflated: Buffer, days: number[]): MonthLayout {
  const bytes = isLaidOut(inflated) ? inflated : layoutSeriesMonth(days, textsOf(inflated, days.length));
  if (bytes.length < HEADER || bytes[1] !== VERSION) throw new Error('series_month: unknown layout');
  const groups = bytes[2];
  const counts = bytes[3];
  const n = bytes.readUInt16LE(4);
  const series = groups + counts;
  if (n !== days.length || bytes.length < HEADER + 2 * series * n)
    throw new Error('series_month: malformed month');
  // copied out: the inflated bytes need not be aligned for a Uint16Array view
  const lengths = new Uint16Array(series * n);
  Buffer.from(lengths.buffer).set(bytes.subarray(HEADER, HEADER + 2 * series * n));
  const at = new Int32Array(series + 1);
  at[0] = HEADER + 2 * series * n;
  for (let s = 0; s < series; s++) {
    let sum = 0;
    for (let i = s * n, e = i + n; i < e; i++) sum += lengths[i];
    at[s + 1] = at[s] + sum;
  }
  if (at[series] !== bytes.length) throw new Error('series_month: malformed month');
  return { bytes, groups, counts, days: n, lengths, at };
}

/** A kept month (gzipped) from its days' texts. */
export const encodeSeriesMonth = (days: number[], texts: string[]): Buffer =>
  gzipSync(layoutSeriesMonth(days, texts));

/** Whether an inflated kept month is laid out as sent, not kept as texts (before migration 23). */
export const isLaidOut = (inflated: Buffer): boolean => inflated[0] === MAGIC;

/** A kept month's days' texts (to merge a recomputed day into it), from either layout (inflated or not). */
export function decodeSeriesMonth(
  body: Uint8Array,
  days: number[],
  inflated: Buffer = inflate(body),
): string[] {
  if (!isLaidOut(inflated)) return textsOf(inflated, days.length);
  const m = monthLayout(inflated, days);
  const n = m.days;
  const texts: string[][] = Array.from({ length: n }, () => []);
  const counts: string[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < m.groups + m.counts; s++) {
    const trim = s < m.groups ? 0 : COUNT_KEY.length;
    for (let i = 0, at = m.at[s]; i < n; i++) {
      const len = m.lengths[s * n + i];
      // a group's point without its date and comma; a count's number without `"count":` and `},`
      const part = len ? m.bytes.toString('utf8', at + DATE_BYTES + trim, at + len - (trim ? 2 : 1)) : '';
      (s < m.groups ? texts : counts)[i].push(part);
      at += len;
    }
  }
  return texts.map((groups, i) => [...groups, counts[i].join(',')].join(SERIES_SEPARATOR));
}

/** The days' texts of a month kept before migration 23. */
function textsOf(inflated: Buffer, days: number): string[] {
  const texts = inflated.toString('utf8').split(DAY_SEPARATOR);
  if (texts.length !== days) throw new Error('series_month: malformed month');
  return texts;
}
