import type { Facing } from '@cena-metra/contract';
import type { FlatRecord, Segment } from './types.js';

/**
 * One cell of the daily cube: the active flats of one (building, facing, settlement date, rooms, reserved)
 * on a snapshot day. Areas are summed in hundredths of m² as integers so that sums do not depend on order.
 */
export interface CubeCell {
  building: string;
  facing: Facing;
  settlementDate: string | null;
  rooms: number;
  /** the lots are RESERVED (§10.2: status AVAILABLE leaves them out); lots without a status are not */
  reserved: boolean;
  count: number;
  sumPrice: number;
  sumArea100: number;
  minPpm: number;
  maxPpm: number;
}

export function area100(area: number): number {
  return Math.round(area * 100);
}

/** Whether a record counts as reserved (§10.2). */
export function isReserved(rec: FlatRecord): boolean {
  return rec.status === 'RESERVED';
}

function cellKey(rec: FlatRecord): string {
  return `${rec.building}\u0001${rec.facing}\u0001${rec.settlementDate ?? ''}\u0001${rec.rooms}\u0001${isReserved(rec) ? 1 : 0}`;
}

/** What a flat adds to its cell on each day it is active: worked out once for a run of days. */
export interface CellShare {
  key: string;
  rec: FlatRecord;
  ppm: number;
  area100: number;
}

export function cellShare(rec: FlatRecord): CellShare {
  return { key: cellKey(rec), rec, ppm: rec.price / rec.area, area100: area100(rec.area) };
}

/** Adds one active flat (its share) to a day's cells. */
export function addShare(cells: Map<string, CubeCell>, share: CellShare): void {
  const { rec, ppm } = share;
  const cell = cells.get(share.key);
  if (cell) {
    cell.count++;
    cell.sumPrice += rec.price;
    cell.sumArea100 += share.area100;
    if (ppm < cell.minPpm) cell.minPpm = ppm;
    if (ppm > cell.maxPpm) cell.maxPpm = ppm;
  } else {
    cells.set(share.key, {
      building: rec.building,
      facing: rec.facing,
      settlementDate: rec.settlementDate,
      rooms: rec.rooms,
      reserved: isReserved(rec),
      count: 1,
      sumPrice: rec.price,
      sumArea100: share.area100,
      minPpm: ppm,
      maxPpm: ppm,
    });
  }
}

/** Adds one active flat to a day's cells (the share worked out for this day alone). */
export function addToCells(cells: Map<string, CubeCell>, rec: FlatRecord): void {
  addShare(cells, cellShare(rec));
}

/** Sorted cells: a canonical form, so equal cubes serialise equally. */
export function sortedCells(cells: Map<string, CubeCell>): CubeCell[] {
  return [...cells.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]);
}

/**
 * The cube of each snapshot day in `days` (ascending): the flats active on that day (their segment covers
 * it), aggregated by cell. A day's state holds until the next snapshot, so snapshot days are enough.
 */
export function buildCubes(segments: Segment[][], days: number[]): CubeCell[][] {
  const perDay = days.map(() => new Map<string, CubeCell>());
  if (days.length === 0) return [];
  const first = days[0];
  const last = days[days.length - 1];
  for (const flatSegments of segments) {
    for (const seg of flatSegments) {
      const end = seg.endDay ?? Number.POSITIVE_INFINITY;
      if (end < first || seg.startDay > last) continue;
      // binary search the first day >= seg.startDay
      let lo = 0;
      let hi = days.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (days[mid] < seg.startDay) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= days.length || days[lo] > end) continue;
      const share = cellShare(seg.rec);
      for (let i = lo; i < days.length && days[i] <= end; i++) addShare(perDay[i], share);
    }
  }
  return perDay.map(sortedCells);
}

/** Compact storage form of a day's cells (one text column per project-day). */
export function encodeCells(cells: CubeCell[]): string {
  return JSON.stringify(
    cells.map((c) => [
      c.building,
      c.facing,
      c.settlementDate,
      c.rooms,
      c.count,
      c.sumPrice,
      c.sumArea100,
      c.minPpm,
      c.maxPpm,
      c.reserved ? 1 : 0,
    ]),
  );
}

export function decodeCells(text: string): CubeCell[] {
  const raw = JSON.parse(text) as [
    string,
    Facing,
    string | null,
    number,
    number,
    number,
    number,
    number,
    number,
    0 | 1,
  ][];
  return raw.map(
    ([building, facing, settlementDate, rooms, count, sumPrice, sumArea100, minPpm, maxPpm, reserved]) => ({
      building,
      facing,
      settlementDate,
      rooms,
      reserved: reserved === 1,
      count,
      sumPrice,
      sumArea100,
      minPpm,
      maxPpm,
    }),
  );
}
