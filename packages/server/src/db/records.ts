import { type Facing, type FlatStatus, SETTLEMENT_DONE } from '@cena-metra/contract';
import type { FlatRecord, Segment } from '../analytics/types.js';
import { fromDay } from '../lib/days.js';
import type { Column, Db } from './driver.js';

/** A flat's record as stored in a row (flat_observation, flat_segment). */
export interface RecordColumns {
  building: string | null;
  section: string | null;
  floor: number | null;
  number: string | null;
  rooms: number | null;
  area: number | null;
  facing: string | null;
  settlement_date: string | null;
  price: number | null;
  base_price: number | null;
  status: string | null;
  offer: string | null;
}

/** A record's columns in their stored order: each with its SQL type and its value from a record. */
const RECORD_FIELDS: readonly (readonly [
  name: keyof RecordColumns,
  type: Column[1],
  of: (r: FlatRecord) => unknown,
])[] = [
  ['building', 'text', (r) => r.building],
  ['section', 'text', (r) => r.section],
  ['floor', 'int', (r) => r.floor],
  ['number', 'text', (r) => r.number],
  ['rooms', 'int', (r) => r.rooms],
  ['area', 'float8', (r) => r.area],
  ['facing', 'text', (r) => r.facing],
  ['settlement_date', 'date', (r) => settlementColumn(r.settlementDate)],
  ['price', 'int8', (r) => r.price],
  ['base_price', 'int8', (r) => r.basePrice],
  ['status', 'text', (r) => r.status],
  ['offer', 'text', (r) => r.offer],
];

export const RECORD_COLUMNS = RECORD_FIELDS.map(([name]) => name).join(', ');

/** The record's columns of the table aliased `alias`, in RECORD_COLUMNS order. */
export function recordColumnsOf(alias: string): string {
  return RECORD_FIELDS.map(([name]) => `${alias}.${name}`).join(', ');
}

type RecordColumnName = keyof RecordColumns;
const fieldsBut = (except: readonly RecordColumnName[]) =>
  except.length ? RECORD_FIELDS.filter(([name]) => !except.includes(name)) : RECORD_FIELDS;

/** A record's columns (all, or all but `except`) with their types, as `Db.insertColumns` takes them. */
export function recordTypes(except: readonly RecordColumnName[] = []): Column[] {
  return fieldsBut(except).map(([name, type]) => [name, type] as const);
}

/** Records as one array per column, in `recordTypes(except)`'s order; a null record is a row of nulls. */
export function recordArrays(
  recs: readonly (FlatRecord | null)[],
  except: readonly RecordColumnName[] = [],
): unknown[][] {
  return fieldsBut(except).map(([, , of]) => recs.map((r) => (r ? (of(r) ?? null) : null)));
}

/**
 * A delivered building's settlement key (DONE) in a `date` column: the last date there is, which also sorts
 * it after every date in SQL. Only this module (its reads and the writes of records) knows it.
 */
/** Rows per multi-row statement: large enough to amortise a round trip, small enough to keep memory flat. */
const ROW_CHUNK = 5_000;

/** Writes `items` a chunk of ROW_CHUNK rows at a time, in order. */
export async function inChunks<T>(items: readonly T[], write: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let offset = 0; offset < items.length; offset += ROW_CHUNK)
    await write(items.slice(offset, offset + ROW_CHUNK));
}

export const DONE_DATE = '9999-12-31';

/** A record's settlement as stored. */
function settlementColumn(settlementDate: string | null): string | null {
  return settlementDate === SETTLEMENT_DONE ? DONE_DATE : settlementDate;
}

export function recordFromRow(r: RecordColumns): FlatRecord {
  return {
    building: r.building!,
    section: r.section,
    floor: r.floor,
    number: r.number,
    rooms: r.rooms!,
    area: r.area!,
    facing: r.facing as Facing,
    settlementDate: r.settlement_date === DONE_DATE ? SETTLEMENT_DONE : r.settlement_date,
    price: r.price!,
    basePrice: r.base_price,
    status: r.status as FlatStatus | null,
    offer: r.offer ?? null,
  };
}

/**
 * A segment as one JSON array — its flat, start and end days, then its record's columns as stored, in
 * RECORD_COLUMNS order — as a project's kept lots on sale hold it (active_latest, migration 37).
 */
export function segmentArray(s: Segment): unknown[] {
  return [s.flatId, s.startDay, s.endDay, ...RECORD_FIELDS.map(([, , of]) => of(s.rec) ?? null)];
}

/** The segment of a `segmentArray` array: as the timeline's row of it reads. */
export function segmentOfArray(a: readonly unknown[]): Segment {
  const column = Object.fromEntries(RECORD_FIELDS.map(([name], i) => [name, a[3 + i] ?? null]));
  return {
    flatId: a[0] as number,
    startDay: a[1] as number,
    endDay: a[2] as number | null,
    rec: recordFromRow(column as unknown as RecordColumns),
  };
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** A record from its columns' text forms (`Db.textRows`), `at` the index of its first column. */
export function recordFromText(v: readonly (string | null)[], at: number): FlatRecord {
  return recordFromRow({
    building: v[at],
    section: v[at + 1],
    floor: num(v[at + 2]),
    number: v[at + 3],
    rooms: num(v[at + 4]),
    area: num(v[at + 5]),
    facing: v[at + 6],
    settlement_date: v[at + 7],
    price: num(v[at + 8]),
    base_price: num(v[at + 9]),
    status: v[at + 10],
    offer: v[at + 11],
  });
}

/**
 * A project's activity segments (or those `where` keeps: SQL over flat_segment `s`, parameters from $2),
 * each flat's in day order, the flats in id order; days as day numbers. Read as text rows: the bulk read
 * of a timeline.
 */
export async function readSegments(
  db: Db,
  projectId: number,
  where = 'true',
  params: unknown[] = [],
): Promise<Map<number, Segment[]>> {
  const rows = await db.textRows(
    `select s.flat_id, s.start_day - date '1970-01-01', s.end_day - date '1970-01-01',
       ${recordColumnsOf('s')}
     from flat_segment s where s.project_id = $1 and (${where}) order by s.flat_id, s.start_day`,
    [projectId, ...params],
  );
  const byFlat = new Map<number, Segment[]>();
  for (const r of rows) {
    const flatId = Number(r[0]);
    let list = byFlat.get(flatId);
    if (!list) {
      list = [];
      byFlat.set(flatId, list);
    }
    list.push({
      flatId,
      startDay: Number(r[1]),
      endDay: r[2] === null ? null : Number(r[2]),
      rec: recordFromText(r, 3),
    });
  }
  return byFlat;
}

/**
 * Of each of `flatIds`, the latest segment started by `day` (one row a flat, not its timeline): what a
 * chessboard reads of a day. `covering` keeps only a segment still running that day (through `lastDay`).
 */
export async function readSegmentsOn(
  db: Db,
  projectId: number,
  flatIds: number[],
  day: number,
  covering: { lastDay: number } | null = null,
): Promise<Segment[]> {
  // one backward probe of the key (project, flat, start day) per flat
  const rows = await db.textRows(
    `select s.flat_id, s.start_day - date '1970-01-01', s.end_day - date '1970-01-01',
       ${recordColumnsOf('s')}
     from unnest($2::int[]) as f(id)
     cross join lateral (
       select * from flat_segment s
       where s.project_id = $1 and s.flat_id = f.id and s.start_day <= $3::date
       order by s.start_day desc limit 1) s
     ${covering ? 'where coalesce(s.end_day, $4::date) >= $3::date' : ''}`,
    [projectId, flatIds, fromDay(day), ...(covering ? [fromDay(covering.lastDay)] : [])],
  );
  return rows.map((r) => ({
    flatId: Number(r[0]),
    startDay: Number(r[1]),
    endDay: r[2] === null ? null : Number(r[2]),
    rec: recordFromText(r, 3),
  }));
}

/** A project's buildings (as segments name them), by a walk over the index: one lookup each. */
export async function readBuildings(db: Db, projectId: number): Promise<string[]> {
  return (
    await db.textRows(
      `with recursive b(v) as (
         select min(building) from flat_segment where project_id = $1
         union all
         select (select min(building) from flat_segment where project_id = $1 and building > b.v)
         from b where b.v is not null)
       select v from b where v is not null`,
      [projectId],
    )
  ).map((r) => r[0]!);
}

/** Every flat ever seen in a building (any segment of it there), in id order, from the index. */
export async function readBuildingFlats(db: Db, projectId: number, building: string): Promise<number[]> {
  return (
    await db.textRows(
      'select distinct flat_id from flat_segment where project_id = $1 and building = $2 order by flat_id',
      [projectId, building],
    )
  ).map((r) => Number(r[0]));
}
