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

/** Every field of a record, each named once (the type insists): sameRecord compares each of them. */
const RECORD_FIELDS: Record<keyof FlatRecord, true> = {
  building: true,
  section: true,
  floor: true,
  number: true,
  rooms: true,
  area: true,
  facing: true,
  settlementDate: true,
  price: true,
  basePrice: true,
  status: true,
  offer: true,
};
export const RECORD_KEYS = Object.keys(RECORD_FIELDS) as (keyof FlatRecord)[];

export function sameRecord(a: FlatRecord | null, b: FlatRecord | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  // field by field, what changes most first (a keyed loop over RECORD_KEYS was a tenth of the demo's
  // model work: the import compares every listed flat with its last row)
  return (
    a.price === b.price &&
    a.status === b.status &&
    a.offer === b.offer &&
    a.basePrice === b.basePrice &&
    a.area === b.area &&
    a.building === b.building &&
    a.settlementDate === b.settlementDate &&
    a.facing === b.facing &&
    a.rooms === b.rooms &&
    a.floor === b.floor &&
    a.section === b.section &&
    a.number === b.number
  );
}

/** Price per m²: price / area, never rounded before aggregation. */
export function meterPrice(rec: FlatRecord): number {
  return rec.price / rec.area;
}
