import type { Facing, FlatStatus } from '@cena-metra/contract';
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

export function recordFromRow(r: RecordColumns): FlatRecord {
  return {
    building: r.building!,
    section: r.section,
    floor: r.floor,
    number: r.number,
    rooms: r.rooms!,
    area: r.area!,
    facing: r.facing as Facing,
    settlementDate: r.settlement_date,
    price: r.price!,
    basePrice: r.base_price,
    status: r.status as FlatStatus | null,
  };
}
