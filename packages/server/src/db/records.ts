import { type Facing, type FlatStatus, SETTLEMENT_DONE } from '@cena-metra/contract';
import type { FlatRecord } from '../analytics/types.js';
import type { Column } from './driver.js';

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
];

export const RECORD_COLUMNS = RECORD_FIELDS.map(([name]) => name).join(', ');

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
  };
}
