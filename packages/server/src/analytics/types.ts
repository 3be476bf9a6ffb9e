import type { Facing, FlatStatus } from '@cena-metra/contract';

/**
 * The carry-forward limit C (DESIGN §10.1, setting MAX_CARRY_DAYS): a day more than C days after its latest
 * snapshot has no data, and an absence is bridged only from a presence at most C days before.
 */
export const DEFAULT_CARRY_DAYS = 31;

/** A flat's listed attributes in one snapshot: what the price list says about it. */
export interface FlatRecord {
  building: string;
  section: string | null;
  floor: number | null;
  number: string | null;
  rooms: number;
  area: number;
  facing: Facing;
  settlementDate: string | null;
  price: number;
  basePrice: number | null;
  status: FlatStatus | null;
  /**
   * what the developer offers beside the price (DESIGN §11.4: old price, prices by payment term, promo,
   * booking fee, plan) as one canonical text (contract's offerText), null when nothing: compared as a whole
   */
  offer: string | null;
}

/**
 * One stored observation: the flat's state from snapshot `day` on, until its next row.
 * `rec === null` means absent from the list. Rows are written only where the state changes.
 */
export interface ObservationRow {
  day: number;
  rec: FlatRecord | null;
}

/** A flat's history: its rows sorted by day. */
export interface FlatHistory {
  flatId: number;
  rows: ObservationRow[];
}

/** A run of days on which the flat is active with one record. `endDay === null`: through the last data day. */
export interface Segment {
  flatId: number;
  startDay: number;
  endDay: number | null;
  rec: FlatRecord;
}

export const RECORD_KEYS: (keyof FlatRecord)[] = [
  'building',
  'section',
  'floor',
  'number',
  'rooms',
  'area',
  'facing',
  'settlementDate',
  'price',
  'basePrice',
  'status',
  'offer',
];

export function sameRecord(a: FlatRecord | null, b: FlatRecord | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  for (const key of RECORD_KEYS) if (a[key] !== b[key]) return false;
  return true;
}

/** Price per m²: price / area, never rounded before aggregation. */
export function meterPrice(rec: FlatRecord): number {
  return rec.price / rec.area;
}
