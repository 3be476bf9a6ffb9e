import { gunzipSync, gzipSync } from 'node:zlib';
import { STATS_MAP_KEYS, STATS_PRICE_KEYS } from '@cena-metra/contract';
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

/** A month's columns from its days' texts (the `SeriesDay` texts of derive/series.ts), in day order. */
export function columnsOfTexts(texts: string[], groups: number, counts: number): ColumnsMonth {
  const n = texts.length;
  const parts = texts.map((t) => t.split(SERIES_SEPARATOR));
  const out: ColumnsMonth = { groups: [], c: [], e: [] };
  for (let g = 0; g < groups; g++) {
    const prices = STATS_PRICE_KEYS.map(() => new Array<string>(n).fill('null'));
    const maps = STATS_MAP_KEYS.map(() => new Map<string, string[]>());
    parts.forEach((p, i) => {
      if (!p[g]) return;
      const point = JSON.parse(`{${p[g]}`) as Record<string, number | Record<string, number>>;
      STATS_PRICE_KEYS.forEach((key, j) => {
        prices[j][i] = JSON.stringify(point[key]);
      });
      STATS_MAP_KEYS.forEach((key, j) => {
        for (const [name, v] of Object.entries(point[key] as Record<string, number>)) {
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
  const days = parts.map((p) => (p[groups] ? p[groups].split(',') : []));
  for (let c = 0; c < counts; c++) out.c.push(days.map((day) => day[c] ?? 'null').join(','));
  parts.forEach((p, i) => {
    if (days[i].length === 0 && p.slice(0, groups).every((x) => !x)) out.e.push(i);
  });
  return out;
}

export const encodeColumnsMonth = (c: ColumnsMonth): string =>
  gzipSync(JSON.stringify(c), { level: 1 }).toString('base64');

/** A kept month's columns, with the length of their JSON (what the reader holds of them). */
export function decodeColumnsMonth(base64: string): { columns: ColumnsMonth; bytes: number } {
  const json = gunzipSync(Buffer.from(base64, 'base64'));
  return { columns: JSON.parse(json.toString('utf8')) as ColumnsMonth, bytes: json.length };
}
