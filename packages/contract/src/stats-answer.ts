import { z } from 'zod';
import {
  flatsCountSeriesSchema,
  type StatsResponse,
  shortFlatSummarySchema,
  statsResponseSchema,
} from './api.js';

/**
 * The stats answer parsed as `statsResponseSchema` parses it, fast (DESIGN §12.2): the five groups' points —
 * a point a day of a project's history, four price maps each, megabytes — are checked by plain loops,
 * the rest by the schema. zod takes 100–250 ms over a 3.6 MB answer; this a few. Whatever the loops do not
 * accept as exactly the schema's shape (a missing field, a wrong type, an extra key) goes to the schema
 * itself, so the result and its errors are the schema's (stats-answer.test.ts holds the two equal on
 * generated answers, valid and broken).
 */
const GROUPS = ['allRoomsData', 'studioData', 'oneRoomData', 'twoRoomsData', 'threeAndMoreRoomData'] as const;
const MAPS = [
  'avgMeterPriceByFacing',
  'avgMeterPriceBySettlementDate',
  'avgMeterPriceByBuilding',
  'avgMeterPriceByRoomsNumber',
] as const;
const POINT_KEYS = 8;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

function pointOk(p: unknown): boolean {
  if (!isObject(p) || keyCount(p) !== POINT_KEYS) return false;
  if (typeof p.date !== 'string' || !isNumber(p.minMeterPrice) || !isNumber(p.maxMeterPrice)) return false;
  if (!isNumber(p.avgMeterPrice)) return false;
  for (const name of MAPS) {
    const m = p[name];
    if (!isObject(m)) return false;
    for (const k in m) {
      const v = m[k];
      if (v !== null && !isNumber(v)) return false;
    }
  }
  return true;
}

const restSchema = z.object({
  flatsCountList: z.array(flatsCountSeriesSchema),
  shortFlatSummaryList: z.array(shortFlatSummarySchema),
});

type Parsed = ReturnType<typeof statsResponseSchema.safeParse>;

export function parseStatsAnswer(value: unknown): Parsed {
  const slow = () => statsResponseSchema.safeParse(value);
  if (!isObject(value) || keyCount(value) !== GROUPS.length + 2) return slow();
  for (const g of GROUPS) {
    const group = value[g];
    if (!isObject(group) || keyCount(group) !== 1 || !Array.isArray(group.points)) return slow();
    for (const p of group.points) if (!pointOk(p)) return slow();
  }
  const rest = restSchema.safeParse({
    flatsCountList: value.flatsCountList,
    shortFlatSummaryList: value.shortFlatSummaryList,
  });
  if (!rest.success) return slow();
  const data = { ...rest.data } as StatsResponse;
  for (const g of GROUPS) data[g] = value[g] as StatsResponse[typeof g];
  return { success: true, data } as Parsed;
}

/** The stats answer's door for a client: `statsResponseSchema`'s result, at the speed of loops. */
export const statsAnswerSchema = { safeParse: parseStatsAnswer };
