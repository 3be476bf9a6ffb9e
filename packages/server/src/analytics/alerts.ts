import type { AlertKind, EventKind, Facing, RoomGroup, WatchRules } from '@cena-metra/contract';
import { GROUP_FILTERS } from './stats.js';

/** A watched item as the rules read it (issue 17): a flat, or a segment of its project. */
export interface WatchItem {
  id: number;
  /** a flat watch: the flat; a segment: null */
  flatId: number | null;
  /** the segment's building key, rooms group, price cap and finish (null = any) */
  building: string | null;
  rooms: RoomGroup;
  maxPrice: number | null;
  finish: Facing | null;
  rules: WatchRules;
  /** the first event day it alerts on */
  since: number;
}

/** A §4.4 event of the watched item's project, with the flat's first presence for a NEW one. */
export interface AlertEvent {
  day: number;
  flatId: number;
  kind: EventKind;
  building: string;
  rooms: number;
  facing: Facing;
  oldPrice: number | null;
  newPrice: number | null;
  changePercent: number | null;
  /** the flat's first presence in the project's snapshots (a NEW on a later day is a flat back on sale) */
  firstSeen: number | null;
}

/** Whether the event's flat lies in the segment (a price change counts when either price is under the cap). */
function inSegment(w: WatchItem, e: AlertEvent): boolean {
  if (w.building !== null && e.building !== w.building) return false;
  if (!GROUP_FILTERS[w.rooms](e.rooms)) return false;
  if (w.finish !== null && e.facing !== w.finish) return false;
  if (w.maxPrice !== null) {
    const prices = [e.oldPrice, e.newPrice].filter((p): p is number => p !== null);
    if (!prices.some((p) => p <= w.maxPrice!)) return false;
  }
  return true;
}

/**
 * What alert, if any, an event raises for a watched item by its rules: a price change (any, or at least
 * `minChangePercent` either way), the flat removed, back on sale (a NEW of a flat seen before), or, for a
 * segment, a new flat, and the developer's promotion appearing or going (§11.4) when chosen. Events before
 * the item's `since` and area changes raise none.
 */
export function alertFor(w: WatchItem, e: AlertEvent): AlertKind | null {
  if (e.day < w.since) return null;
  if (w.flatId !== null ? e.flatId !== w.flatId : !inSegment(w, e)) return null;
  switch (e.kind) {
    case 'PRICE_UP':
    case 'PRICE_DOWN': {
      if (!w.rules.price) return null;
      const min = w.rules.minChangePercent;
      if (min !== null && Math.abs(e.changePercent ?? 0) < min - 1e-9) return null;
      return e.kind;
    }
    case 'REMOVED':
      return w.rules.removed ? 'REMOVED' : null;
    case 'NEW': {
      const back = w.flatId !== null || (e.firstSeen !== null && e.firstSeen < e.day);
      if (back) return w.rules.back ? 'BACK' : null;
      return w.rules.fresh ? 'NEW' : null;
    }
    case 'PROMO_STARTED':
    case 'PROMO_ENDED':
      return w.rules.promo ? e.kind : null;
    default:
      return null;
  }
}

/** The alerts of a project's events for its watched items: each (item, event) at most once. */
export function matchAlerts<W extends WatchItem, E extends AlertEvent>(
  watches: W[],
  events: E[],
): { watch: W; event: E; kind: AlertKind }[] {
  const byFlat = new Map<number, W[]>();
  const segments: W[] = [];
  for (const w of watches) {
    if (w.flatId === null) segments.push(w);
    else byFlat.set(w.flatId, [...(byFlat.get(w.flatId) ?? []), w]);
  }
  const out: { watch: W; event: E; kind: AlertKind }[] = [];
  for (const e of events)
    for (const w of [...(byFlat.get(e.flatId) ?? []), ...segments]) {
      const kind = alertFor(w, e);
      if (kind) out.push({ watch: w, event: e, kind });
    }
  return out;
}
