import { type Facing, type FlatStatus, SETTLEMENT_DONE } from '@cena-metra/contract';
import type { FlatRecord } from '../analytics/types.js';

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

export const RECORD_COLUMNS =
  'building, section, floor, number, rooms, area, facing, settlement_date, price, base_price, status';

/**
 * A delivered building's settlement key (DONE) in a `date` column: the last date there is, which also sorts
 * it after every date in SQL. Only this module and the writes of records (`settlementColumn`) know it.
 */
export const DONE_DATE = '9999-12-31';

/** A record's settlement as stored. */
export function settlementColumn(settlementDate: string | null): string | null {
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
