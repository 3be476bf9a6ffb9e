import { gzipSync } from 'node:zlib';
import { STATS_MAP_KEYS, STATS_PRICE_KEYS } from '@cena-metra/contract';
import { inflate } from './kept.js';
import { SERIES_SEPARATOR } from './kept-series.js';

/**
 * The kept stats series in columns (DESIGN §12.2, `series_month.columns_all` / `columns_available`): a
 * project's month of snapshot days under one status as the web's answer (`/project/stats/columns`) writes
 * it, made by the import from the same day texts as the seed's form (db/kept-series.ts). For each room
 * group its three prices and each price map's keys, for the counts each count: the month's values joined
 * by commas, `null` on a day without one — so an answer over whole months joins a few hundred strings, and
 * no number is read or written again on a request. Gzipped JSON, as base64 text.
 */
export interface ColumnsMonth {
  /** the room groups in GROUPS' order: `p` the prices (STATS_PRICE_KEYS), `m` the maps (STATS_MAP_KEYS) */
  groups: { p: string[]; m: Record<string, string>[] }[];
  /** the counts in countLabels' order */
  c: string[];
  /** the month's days (their places in it) on which no series has a point: not days of the answer */
  e: number[];
}

/** A room group's point on a day as the series hold it: its prices and its maps (null: no point). */
export type SeriesPoint = object;

/** A snapshot day's series under one status: each room group's point, then the day's counts. */
export interface SeriesDay {
  points: (SeriesPoint | null)[];
  counts: readonly (number | string)[];
}

/** A day's text (the `SeriesDay` texts of derive/series.ts) read back into its points and counts. */
export function seriesDayOfText(text: string, groups: number): SeriesDay {
  const parts = text.split(SERIES_SEPARATOR);
  const points: (SeriesPoint | null)[] = [];
  for (let g = 0; g < groups; g++) points.push(parts[g] ? (JSON.parse(`{${parts[g]}`) as SeriesPoint) : null);
  return { points, counts: parts[groups] ? parts[groups].split(',') : [] };
}

/** A month's columns from its days' texts, in day order. */
export function columnsOfTexts(texts: string[], groups: number, counts: number): ColumnsMonth {
  return columnsOfDays(
    texts.map((t) => seriesDayOfText(t, groups)),
    groups,
    counts,
  );
}

/**
 * A month's columns from its days' points, in day order: each number written as JSON writes it, so the
 * columns of a day's points and of its text read back are the same to the byte.
 */
export function columnsOfDays(days: SeriesDay[], groups: number, counts: number): ColumnsMonth {
  const n = days.length;
  const out: ColumnsMonth = { groups: [], c: [], e: [] };
  for (let g = 0; g < groups; g++) {
    const prices = STATS_PRICE_KEYS.map(() => new Array<string>(n).fill('null'));
    const maps = STATS_MAP_KEYS.map(() => new Map<string, string[]>());
    days.forEach((day, i) => {
      const point = day.points[g] as Record<string, unknown> | null;
      if (!point) return;
      STATS_PRICE_KEYS.forEach((key, j) => {
        prices[j][i] = JSON.stringify(point[key]);
      });
      STATS_MAP_KEYS.forEach((key, j) => {
        for (const [name, v] of Object.entries(point[key] as Record<string, number | null>)) {
          let values = maps[j].get(name);
          if (!values) {
            values = new Array<string>(n).fill('null');
            maps[j].set(name, values);
          }
          values[i] = JSON.stringify(v);
        }
      });
    });
    out.groups.push({
      p: prices.map((v) => v.join(',')),
      m: maps.map((m) => Object.fromEntries([...m].map(([name, v]) => [name, v.join(',')]))),
    });
  }
  for (let c = 0; c < counts; c++) out.c.push(days.map((day) => day.counts[c] ?? 'null').join(','));
  days.forEach((day, i) => {
    if (day.counts.length === 0 && day.points.every((x) => !x)) out.e.push(i);
  });
  return out;
}

export const encodeColumnsMonth = (c: ColumnsMonth): string =>
  gzipSync(JSON.stringify(c), { level: 1 }).toString('base64');

/** A kept month's columns, with the length of their JSON (what the reader holds of them). */
export function decodeColumnsMonth(base64: string): { columns: ColumnsMonth; bytes: number } {
  const json = inflate(Buffer.from(base64, 'base64'));
  return { columns: JSON.parse(json.toString('utf8')) as ColumnsMonth, bytes: json.length };
}
