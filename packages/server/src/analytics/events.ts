import type { EventKind } from '@cena-metra/contract';
import { lowerBound } from '../lib/sorted.js';
import { carries } from './carry.js';
import { area100 } from './cube.js';
import { DEFAULT_CARRY_DAYS, type FlatHistory, type FlatRecord, type ObservationRow } from './types.js';

/** A change an observer learnt of when snapshot k arrived (DESIGN §4.4). */
export interface FlatEvent {
  flatId: number;
  kind: EventKind;
  /** the flat's record in s_k, or its last known record for REMOVED */
  rec: FlatRecord;
  oldPrice: number | null;
  newPrice: number | null;
  changePercent: number | null;
  /** AREA_CHANGED: the area of the flat's record as known before (the new one is `rec.area`) */
  oldArea: number | null;
}

/** The row in force on `day` (the last row dated on or before it), or -1. */
function rowAt(rows: ObservationRow[], day: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].day <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface KnownState {
  active: boolean;
  present: boolean;
  rec: FlatRecord | null;
}

/**
 * The flat as known when snapshot k arrived: with only s_1..s_k known, an absence is bridged only while it
 * has lasted fewer than `grace` snapshots, so the flat is active iff present in one of the last `grace`
 * snapshots; its record is the one of its latest presence.
 */
export function knownAt(
  rows: ObservationRow[],
  dates: number[],
  k: number,
  grace: number,
  carry: number,
): KnownState {
  const i = rowAt(rows, dates[k]);
  if (i < 0) return { active: false, present: false, rec: null };
  const row = rows[i];
  if (row.rec) return { active: true, present: true, rec: row.rec };
  // absent since row.day; the previous row (if any) was the last presence, ending the snapshot before.
  const prev = i > 0 ? rows[i - 1].rec : null;
  if (!prev) return { active: false, present: false, rec: null };
  const lastPresentK = lowerBound(dates, row.day) - 1;
  // §10.1: an absence is bridged only within C days of the last presence
  return {
    active: k - lastPresentK < grace && carries(dates[lastPresentK], dates[k], carry),
    present: false,
    rec: prev,
  };
}

/**
 * Events of one flat at snapshot index k ≥ 1 (k = 0 has no flat events): NEW or REMOVED, or for a listed
 * flat active before, a price change, an area change (§10.3) and a promotion started or ended (§11.4), in
 * that order.
 */
export function flatEventsAt(
  history: FlatHistory,
  dates: number[],
  k: number,
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
): FlatEvent[] {
  if (k < 1) return [];
  const now = knownAt(history.rows, dates, k, grace, carry);
  const before = knownAt(history.rows, dates, k - 1, grace, carry);
  const flatId = history.flatId;
  if (now.active && !before.active) {
    const rec = now.rec!;
    return [
      { flatId, kind: 'NEW', rec, oldPrice: null, newPrice: rec.price, changePercent: null, oldArea: null },
    ];
  }
  if (before.active && !now.active) {
    const rec = before.rec!;
    return [
      {
        flatId,
        kind: 'REMOVED',
        rec,
        oldPrice: rec.price,
        newPrice: null,
        changePercent: null,
        oldArea: null,
      },
    ];
  }
  if (!now.present || !before.active) return [];
  const out: FlatEvent[] = [];
  const rec = now.rec!;
  const old = before.rec!;
  if (rec.price !== old.price) {
    out.push({
      flatId,
      kind: rec.price > old.price ? 'PRICE_UP' : 'PRICE_DOWN',
      rec,
      oldPrice: old.price,
      newPrice: rec.price,
      changePercent: ((rec.price - old.price) / old.price) * 100,
      oldArea: null,
    });
  }
  // areas are whole hundredths of m² (validation rounds them): a change of 0.01 m² or more
  if (area100(rec.area) !== area100(old.area)) {
    out.push({
      flatId,
      kind: 'AREA_CHANGED',
      rec,
      oldPrice: old.price,
      newPrice: rec.price,
      changePercent: null,
      oldArea: old.area,
    });
  }
  // §11.4: the developer's promotion or crossed-out price appeared or went
  const promo = promoted(rec.offer);
  if (promo !== promoted(old.offer)) {
    out.push({
      flatId,
      kind: promo ? 'PROMO_STARTED' : 'PROMO_ENDED',
      rec,
      oldPrice: old.price,
      newPrice: rec.price,
      changePercent: null,
      oldArea: null,
    });
  }
  return out;
}

/**
 * Whether an offer's canonical text (contract's offerText) holds a promotion or a crossed-out price: its
 * keys are written bare, a value's quotes escaped, so the key's text appears only as the key.
 */
export function promoted(offer: string | null): boolean {
  return offer !== null && (offer.startsWith('{"oldPrice":') || offer.includes('"promo":'));
}

/** All flat events of a project at snapshot index k, in flat order. */
export function projectEventsAt(
  flats: Iterable<FlatHistory>,
  dates: number[],
  k: number,
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
) {
  const out: FlatEvent[] = [];
  for (const flat of flats) out.push(...flatEventsAt(flat, dates, k, grace, carry));
  return out;
}

export type EventCounts = Record<EventKind, number>;

/** Every kind of event counted 0. */
export const emptyEventCounts = (): EventCounts => ({
  NEW: 0,
  REMOVED: 0,
  PRICE_UP: 0,
  PRICE_DOWN: 0,
  AREA_CHANGED: 0,
  PROMO_STARTED: 0,
  PROMO_ENDED: 0,
});

export function countEvents(events: FlatEvent[]): EventCounts {
  const counts = emptyEventCounts();
  for (const e of events) counts[e.kind]++;
  return counts;
}

/** Average change % of the price events, or null when there are none. */
export function averageChangePercent(events: FlatEvent[]): number | null {
  let sum = 0;
  let n = 0;
  for (const e of events) {
    if (e.changePercent !== null) {
      sum += e.changePercent;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}
