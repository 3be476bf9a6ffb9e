import {
  FLATS_COUNT_LABELS,
  type FlatsCountSeries,
  offerOf,
  type RoomGroup,
  type ShortFlatSummary,
  STATUS_COUNT_LABELS,
  type StatsPoint,
  type StatsResponse,
  type StatsStatus,
} from '@cena-metra/contract';
import { fromDay } from '../lib/days.js';
import { carries } from './carry.js';
import { area100, type CubeCell, isReserved } from './cube.js';
import { compareNatural } from './natural.js';
import { DEFAULT_CARRY_DAYS, type FlatRecord } from './types.js';

/** Rounds a price or a percent to 2 decimals, as every response does. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export const GROUP_FILTERS: Record<RoomGroup, (rooms: number) => boolean> = {
  all: () => true,
  studio: (r) => r === 0,
  one: (r) => r === 1,
  two: (r) => r === 2,
  threeAndMore: (r) => r >= 3,
};
export const GROUPS = Object.keys(GROUP_FILTERS) as RoomGroup[];

interface Acc {
  sumPrice: number;
  sumArea100: number;
}

function weighted(acc: Acc): number {
  return round2(acc.sumPrice / (acc.sumArea100 / 100));
}

function addAcc(map: Map<string, Acc>, key: string, cell: CubeCell): void {
  const acc = map.get(key);
  if (acc) {
    acc.sumPrice += cell.sumPrice;
    acc.sumArea100 += cell.sumArea100;
  } else map.set(key, { sumPrice: cell.sumPrice, sumArea100: cell.sumArea100 });
}

function mapOf(map: Map<string, Acc>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, acc] of map) out[key] = weighted(acc);
  return out;
}

/** Whether a cell's lots count under a status filter (§10.2: AVAILABLE leaves reserved lots out). */
export function cellCounts(cell: CubeCell, status: StatsStatus): boolean {
  return status === 'ALL' || !cell.reserved;
}

/** Whether a flat's record counts under a status filter (§10.2). */
export function recordCounts(rec: FlatRecord, status: StatsStatus): boolean {
  return status === 'ALL' || !isReserved(rec);
}

/** A room group's point on a day whose active flats are `cells`, or null when the group has no active flat. */
export function groupPoint(
  cells: CubeCell[],
  group: RoomGroup,
  status: StatsStatus = 'ALL',
): Omit<StatsPoint, 'date'> | null {
  const accept = GROUP_FILTERS[group];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const total: Acc = { sumPrice: 0, sumArea100: 0 };
  const byFacing = new Map<string, Acc>();
  const bySettlement = new Map<string, Acc>();
  const byBuilding = new Map<string, Acc>();
  const byRooms = new Map<string, Acc>();
  let count = 0;
  for (const cell of cells) {
    if (!accept(cell.rooms) || !cellCounts(cell, status)) continue;
    count += cell.count;
    if (cell.minPpm < min) min = cell.minPpm;
    if (cell.maxPpm > max) max = cell.maxPpm;
    total.sumPrice += cell.sumPrice;
    total.sumArea100 += cell.sumArea100;
    addAcc(byFacing, cell.facing, cell);
    addAcc(bySettlement, cell.settlementDate ?? 'null', cell);
    addAcc(byBuilding, cell.building, cell);
    addAcc(byRooms, String(cell.rooms), cell);
  }
  if (count === 0) return null;
  return {
    minMeterPrice: round2(min),
    maxMeterPrice: round2(max),
    avgMeterPrice: weighted(total),
    avgMeterPriceByFacing: mapOf(byFacing),
    avgMeterPriceBySettlementDate: mapOf(bySettlement),
    avgMeterPriceByBuilding: mapOf(byBuilding),
    avgMeterPriceByRoomsNumber: mapOf(byRooms),
  };
}

export function groupCount(cells: CubeCell[], group: RoomGroup, status: StatsStatus = 'ALL'): number {
  const accept = GROUP_FILTERS[group];
  let count = 0;
  for (const cell of cells) if (accept(cell.rooms) && cellCounts(cell, status)) count += cell.count;
  return count;
}

/** Lots on sale and reserved lots of a day (the series «Свободные» and «Забронированы» of status ALL). */
export function statusCounts(cells: CubeCell[]): [number, number] {
  let available = 0;
  let reserved = 0;
  for (const cell of cells) {
    if (cell.reserved) reserved += cell.count;
    else available += cell.count;
  }
  return [available, reserved];
}

/** The labels of `flatsCountList` under a status: the room groups, and for ALL the two status series. */
export function countLabels(status: StatsStatus): string[] {
  return status === 'ALL' ? [...FLATS_COUNT_LABELS, ...STATUS_COUNT_LABELS] : [...FLATS_COUNT_LABELS];
}

/** A day's counts in the order of `countLabels(status)`. */
export function dayCounts(cells: CubeCell[], status: StatsStatus): number[] {
  const counts = GROUPS.map((g) => groupCount(cells, g, status));
  return status === 'ALL' ? [...counts, ...statusCounts(cells)] : counts;
}

export interface StatsSeries {
  groups: Record<RoomGroup, StatsPoint[]>;
  flatsCountList: FlatsCountSeries[];
}

/**
 * Points of §4.2 for every day in [fromDay, toDay] that has data: the state of day d is the cube of the
 * latest snapshot on or before d; days after the last snapshot, and days more than `carry` days after
 * their snapshot (§10.1), have no data: no point, no count.
 */
export function statsSeries(
  snapshotDays: number[],
  cubes: CubeCell[][],
  fromDay_: number,
  toDay_: number,
  carry = DEFAULT_CARRY_DAYS,
  status: StatsStatus = 'ALL',
) {
  const groups = Object.fromEntries(GROUPS.map((g) => [g, [] as StatsPoint[]])) as Record<
    RoomGroup,
    StatsPoint[]
  >;
  const counts: FlatsCountSeries[] = countLabels(status).map((label) => ({ label, points: [] }));
  const n = snapshotDays.length;
  if (n === 0) return { groups, flatsCountList: counts } satisfies StatsSeries;
  const start = Math.max(fromDay_, snapshotDays[0]);
  const end = Math.min(toDay_, snapshotDays[n - 1]);
  let k = 0;
  let cachedK = -1;
  let cachedPoints: (Omit<StatsPoint, 'date'> | null)[] = [];
  let cachedCounts: number[] = [];
  for (let day = start; day <= end; day++) {
    while (k + 1 < n && snapshotDays[k + 1] <= day) k++;
    if (!carries(snapshotDays[k], day, carry)) continue;
    if (k !== cachedK) {
      cachedK = k;
      cachedPoints = GROUPS.map((g) => groupPoint(cubes[k], g, status));
      cachedCounts = dayCounts(cubes[k], status);
    }
    const date = fromDay(day);
    GROUPS.forEach((g, i) => {
      const point = cachedPoints[i];
      if (point) groups[g].push({ date, ...point });
    });
    cachedCounts.forEach((count, i) => counts[i].points.push({ date, count }));
  }
  return { groups, flatsCountList: counts } satisfies StatsSeries;
}

/** The §4.2 response as objects, from the day series and the summary table. */
export function statsResponseOf(series: StatsSeries, summary: ShortFlatSummary[]): StatsResponse {
  return {
    allRoomsData: { points: series.groups.all },
    studioData: { points: series.groups.studio },
    oneRoomData: { points: series.groups.one },
    twoRoomsData: { points: series.groups.two },
    threeAndMoreRoomData: { points: series.groups.threeAndMore },
    flatsCountList: series.flatsCountList,
    shortFlatSummaryList: summary,
  };
}

/** A flat active on day A with the highest prices it had over each discount window (§4.2). */
export interface FlatOnDay {
  flatId: number;
  rec: FlatRecord;
  /** highest price while active within [A − 1 day, A], [A − 7 days, A], [A − 1 month, A], [A − 1 year, A] */
  refDay: number;
  ref7Days: number;
  ref1Month: number;
  ref1Year: number;
}

/** discount = max(0, (ref − price) / ref × 100) */
export function discountPercent(ref: number, price: number): number {
  return Math.max(0, ((ref - price) / ref) * 100);
}

/**
 * The crossed-out price the developer shows for a record (§11.4), 0 without one: the reference of the
 * developer's own discount, (ref − price) / ref as §4.3's rule measures any discount.
 */
export function crossedOutPrice(rec: FlatRecord): number {
  return rec.offer === null ? 0 : (offerOf(rec.offer).oldPrice ?? 0);
}

/**
 * The developer's own discount of a record, % unrounded (§11.4): null unless it shows a crossed-out price
 * above its price — the summary table's column, the flat card and the discounts table's
 * «по данным застройщика» alike.
 */
export function developerDiscount(rec: FlatRecord): number | null {
  const crossed = crossedOutPrice(rec);
  return crossed > rec.price ? discountPercent(crossed, rec.price) : null;
}

/** The stable key of a summary row: building | settlement date | facing | rooms. */
export function summaryRowId(
  rec: Pick<FlatRecord, 'building' | 'settlementDate' | 'facing' | 'rooms'>,
): string {
  return [rec.building, rec.settlementDate ?? 'null', rec.facing, rec.rooms].join('|');
}

/** The summary table of §4.2 from the flats active on A: one row per building × settlement × facing × rooms. */
export function shortFlatSummary(flats: FlatOnDay[]): ShortFlatSummary[] {
  interface Row {
    rec: FlatRecord;
    count: number;
    sumPrice: number;
    sumArea100: number;
    min: number;
    max: number;
    d: [number, number, number, number];
    /** the largest developer's discount (§11.4), null while no flat of the row shows one */
    developer: number | null;
  }
  const rows = new Map<string, Row>();
  for (const f of flats) {
    const key = `${f.rec.building}\u0001${f.rec.settlementDate ?? 'null'}\u0001${f.rec.facing}\u0001${f.rec.rooms}`;
    const ppm = f.rec.price / f.rec.area;
    const d: [number, number, number, number] = [
      discountPercent(f.refDay, f.rec.price),
      discountPercent(f.ref7Days, f.rec.price),
      discountPercent(f.ref1Month, f.rec.price),
      discountPercent(f.ref1Year, f.rec.price),
    ];
    let row = rows.get(key);
    if (!row) {
      row = {
        rec: f.rec,
        count: 0,
        sumPrice: 0,
        sumArea100: 0,
        min: ppm,
        max: ppm,
        d: [0, 0, 0, 0],
        developer: null,
      };
      rows.set(key, row);
    }
    row.count++;
    row.sumPrice += f.rec.price;
    row.sumArea100 += area100(f.rec.area);
    row.min = Math.min(row.min, ppm);
    row.max = Math.max(row.max, ppm);
    for (let i = 0; i < 4; i++) row.d[i] = Math.max(row.d[i], d[i]);
    const own = developerDiscount(f.rec);
    if (own !== null) row.developer = Math.max(row.developer ?? 0, own);
  }
  return [...rows.values()]
    .map((r) => ({
      id: summaryRowId(r.rec),
      buildingName: r.rec.building,
      settlementDate: r.rec.settlementDate,
      facingType: r.rec.facing,
      roomsNumber: r.rec.rooms,
      activeFlatsCount: r.count,
      maxMeterPrice: round2(r.max),
      avgMeterPrice: round2(r.sumPrice / (r.sumArea100 / 100)),
      minMeterPrice: round2(r.min),
      maxDiscountLastDay: round2(r.d[0]),
      maxDiscount7Days: round2(r.d[1]),
      maxDiscount1Month: round2(r.d[2]),
      maxDiscount1Year: round2(r.d[3]),
      maxDeveloperDiscount: r.developer === null ? null : round2(r.developer),
    }))
    .sort(compareSummaryRows);
}

/** Building in natural order ("2" before "10"), then settlement date (none last), facing, rooms. */
export function compareSummaryRows(a: ShortFlatSummary, b: ShortFlatSummary): number {
  return (
    compareNatural(a.buildingName, b.buildingName) ||
    compareNullableText(a.settlementDate, b.settlementDate) ||
    compareNatural(a.facingType, b.facingType) ||
    a.roomsNumber - b.roomsNumber
  );
}

function compareNullableText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
