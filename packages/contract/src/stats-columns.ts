import { z } from 'zod';
import { type ShortFlatSummary, type StatsPoint, type StatsResponse, shortFlatSummarySchema } from './api.js';

/**
 * The stats answer in columns (DESIGN §12.2, `POST /api/project/stats/columns`): the web's own form of
 * `POST /api/project/stats`. The seed's shape repeats every key of every point (a point a day, five groups,
 * four price maps each: megabytes for a three-year project); here each figure is one array over the
 * answer's days, so a key is written once and a chart takes its series as it comes.
 *
 * - `dates`: every day of the range with data, in order;
 * - each group: `minMeterPrice`, `maxMeterPrice`, `avgMeterPrice` and one array per key of each price map,
 *   aligned with `dates`; `null` on a day the group (or the key) has no flat — the seed's point (or key)
 *   is absent there;
 * - `flatsCountList`: each count's label and its counts aligned with `dates`;
 * - `shortFlatSummaryList` as in the seed's shape.
 *
 * `expandStatsColumns` gives back the seed's shape, `compactStats` the reverse (a price map's explicit
 * null, which the seed's schema allows and this server never sends, does not survive the trip).
 */
export const STATS_GROUP_KEYS = [
  'allRoomsData',
  'studioData',
  'oneRoomData',
  'twoRoomsData',
  'threeAndMoreRoomData',
] as const;
export type StatsGroupKey = (typeof STATS_GROUP_KEYS)[number];
export const STATS_PRICE_KEYS = ['minMeterPrice', 'maxMeterPrice', 'avgMeterPrice'] as const;
export const STATS_MAP_KEYS = [
  'avgMeterPriceByFacing',
  'avgMeterPriceBySettlementDate',
  'avgMeterPriceByBuilding',
  'avgMeterPriceByRoomsNumber',
] as const;
export type StatsMapKey = (typeof STATS_MAP_KEYS)[number];

/** A figure over the answer's days: null on a day without it. */
export type StatsColumn = (number | null)[];
export type GroupColumns = Record<(typeof STATS_PRICE_KEYS)[number], StatsColumn> &
  Record<StatsMapKey, Record<string, StatsColumn>>;
export interface StatsColumns extends Record<StatsGroupKey, GroupColumns> {
  dates: string[];
  flatsCountList: { label: string; counts: StatsColumn }[];
  shortFlatSummaryList: ShortFlatSummary[];
}

const column = z.array(z.number().nullable());
const groupColumnsSchema = z.object({
  minMeterPrice: column,
  maxMeterPrice: column,
  avgMeterPrice: column,
  avgMeterPriceByFacing: z.record(z.string(), column),
  avgMeterPriceBySettlementDate: z.record(z.string(), column),
  avgMeterPriceByBuilding: z.record(z.string(), column),
  avgMeterPriceByRoomsNumber: z.record(z.string(), column),
});

function columnsOf(c: StatsColumns): StatsColumn[] {
  const out: StatsColumn[] = c.flatsCountList.map((s) => s.counts);
  for (const g of STATS_GROUP_KEYS) {
    const group = c[g];
    for (const k of STATS_PRICE_KEYS) out.push(group[k]);
    for (const m of STATS_MAP_KEYS) out.push(...Object.values(group[m]));
  }
  return out;
}

const statsColumnsShape = {
  dates: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
  allRoomsData: groupColumnsSchema,
  studioData: groupColumnsSchema,
  oneRoomData: groupColumnsSchema,
  twoRoomsData: groupColumnsSchema,
  threeAndMoreRoomData: groupColumnsSchema,
  flatsCountList: z.array(z.object({ label: z.string(), counts: column })),
  shortFlatSummaryList: z.array(shortFlatSummarySchema),
};

export const statsColumnsSchema = z.object(statsColumnsShape).superRefine((c, ctx) => {
  if (columnsOf(c).some((col) => col.length !== c.dates.length))
    ctx.addIssue({ code: 'custom', message: 'each column has one value a day of `dates`', path: ['dates'] });
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function columnOk(v: unknown, n: number): boolean {
  if (!Array.isArray(v) || v.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (x !== null && (typeof x !== 'number' || !Number.isFinite(x))) return false;
  }
  return true;
}

function groupOk(v: unknown, n: number): boolean {
  if (!isObject(v) || Object.keys(v).length !== STATS_PRICE_KEYS.length + STATS_MAP_KEYS.length) return false;
  for (const k of STATS_PRICE_KEYS) if (!columnOk(v[k], n)) return false;
  for (const m of STATS_MAP_KEYS) {
    const map = v[m];
    if (!isObject(map)) return false;
    for (const key in map) if (!columnOk(map[key], n)) return false;
  }
  return true;
}

const restSchema = z.object({
  dates: statsColumnsShape.dates,
  flatsCountList: statsColumnsShape.flatsCountList,
  shortFlatSummaryList: z.array(shortFlatSummarySchema),
});

type Parsed = ReturnType<typeof statsColumnsSchema.safeParse>;

/**
 * `statsColumnsSchema.safeParse` at the speed of loops: the columns (the bulk) are checked by hand, the rest
 * by the schema; whatever the loops do not take as exactly the schema's shape goes to the schema itself, so
 * the result and its errors are the schema's (stats-columns.test.ts holds the two equal).
 */
export function parseStatsColumns(value: unknown): Parsed {
  const slow = () => statsColumnsSchema.safeParse(value);
  if (!isObject(value) || Object.keys(value).length !== STATS_GROUP_KEYS.length + 3) return slow();
  const rest = restSchema.safeParse({
    dates: value.dates,
    flatsCountList: value.flatsCountList,
    shortFlatSummaryList: value.shortFlatSummaryList,
  });
  if (!rest.success) return slow();
  const n = rest.data.dates.length;
  if (rest.data.flatsCountList.some((s) => s.counts.length !== n)) return slow();
  for (const g of STATS_GROUP_KEYS) if (!groupOk(value[g], n)) return slow();
  const data = { ...rest.data } as StatsColumns;
  for (const g of STATS_GROUP_KEYS) data[g] = value[g] as GroupColumns;
  return { success: true, data } as Parsed;
}

/** The columns answer's door for a client (the web): `statsColumnsSchema`'s result, fast. */
export const statsColumnsAnswerSchema = { safeParse: parseStatsColumns };

/** The seed's shape of a columns answer: a point on each day its group has a price, each map's keys of that day. */
export function expandStatsColumns(c: StatsColumns): StatsResponse {
  const out = {
    flatsCountList: c.flatsCountList.map((s) => ({
      label: s.label,
      points: c.dates.flatMap((date, i) => (s.counts[i] === null ? [] : [{ date, count: s.counts[i] }])),
    })),
    shortFlatSummaryList: c.shortFlatSummaryList,
  } as StatsResponse;
  for (const g of STATS_GROUP_KEYS) {
    const group = c[g];
    const points: StatsPoint[] = [];
    c.dates.forEach((date, i) => {
      if (group.avgMeterPrice[i] === null) return;
      const point = {
        date,
        minMeterPrice: group.minMeterPrice[i],
        maxMeterPrice: group.maxMeterPrice[i],
        avgMeterPrice: group.avgMeterPrice[i],
      } as StatsPoint;
      for (const m of STATS_MAP_KEYS) {
        const map: Record<string, number> = {};
        for (const [key, values] of Object.entries(group[m])) if (values[i] !== null) map[key] = values[i];
        point[m] = map;
      }
      points.push(point);
    });
    out[g] = { points };
  }
  return out;
}

/** The columns of a seed-shaped answer (the reverse of `expandStatsColumns`). */
export function compactStats(r: StatsResponse): StatsColumns {
  const days = new Set<string>();
  for (const g of STATS_GROUP_KEYS) for (const p of r[g].points) days.add(p.date);
  for (const s of r.flatsCountList) for (const p of s.points) days.add(p.date);
  const dates = [...days].sort();
  const at = new Map(dates.map((d, i) => [d, i]));
  const empty = (): StatsColumn => new Array(dates.length).fill(null);
  const out = {
    dates,
    flatsCountList: r.flatsCountList.map((s) => {
      const counts = empty();
      for (const p of s.points) counts[at.get(p.date)!] = p.count;
      return { label: s.label, counts };
    }),
    shortFlatSummaryList: r.shortFlatSummaryList,
  } as StatsColumns;
  for (const g of STATS_GROUP_KEYS) {
    const group = {} as GroupColumns;
    for (const k of STATS_PRICE_KEYS) group[k] = empty();
    for (const m of STATS_MAP_KEYS) group[m] = {};
    for (const p of r[g].points) {
      const i = at.get(p.date)!;
      for (const k of STATS_PRICE_KEYS) group[k][i] = p[k];
      for (const m of STATS_MAP_KEYS)
        for (const [key, v] of Object.entries(p[m])) {
          group[m][key] ??= empty();
          group[m][key][i] = v;
        }
    }
    out[g] = group;
  }
  return out;
}
