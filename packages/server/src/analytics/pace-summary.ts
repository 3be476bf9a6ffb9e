import { ROOM_GROUPS, type RoomGroup, STATS_STATUSES, type StatsStatus } from '@cena-metra/contract';
import { lowerBound } from '../lib/sorted.js';
import { lastCarriedDay } from './carry.js';
import { area100 } from './cube.js';
import type { FlatEvent } from './events.js';
import { GROUP_FILTERS, recordCounts } from './stats.js';
import type { FlatRecord, Segment } from './types.js';

/**
 * What sales pace (§10.5), the same-flat index (§10.6) and the average ppm of one project read, for one
 * filter (status × rooms group), per snapshot k: enough to recompute them over any union of projects —
 * a developer's, the market's — exactly, never as an average of averages.
 */
export interface PaceSummary {
  dates: number[];
  /** the last day with data carried from each snapshot (§10.1) */
  ends: number[];
  /** flats active at each snapshot */
  stock: number[];
  /** their sums of prices and of areas (the weighted average ppm of §4.2) */
  priceSum: number[];
  areaSum: number[];
  /** NEW events at each snapshot */
  fresh: number[];
  /** the index's pair from snapshot k − 1 to k: Σ ln(price_k / price_{k−1}) over the flats active at both
   *  with the same area, and how many they are */
  lnSum: number[];
  pairs: number[];
  /** the stock's first presences: the change from snapshot k − 1 to k as flattened [day, count change] */
  firstDelta: number[][];
  /** REMOVED events: the snapshot, the flat, its first presence, and the snapshot days within 30 days from
   *  it on which the flat is in the stock again (it came back: not gone there) */
  removals: { k: number; flatId: number; first: number; back: number[] }[];
}

/** The filters a project's summaries are kept for: every status × rooms group (the market's, the pages'). */
export const PACE_VARIANTS: readonly { status: StatsStatus; rooms: RoomGroup }[] = STATS_STATUSES.flatMap(
  (status) => ROOM_GROUPS.map((rooms) => ({ status, rooms })),
);

/** The records a variant's summary counts: its rooms group, and under AVAILABLE no reserved lot. */
export function variantFilter(status: StatsStatus, rooms: RoomGroup): (rec: FlatRecord) => boolean {
  const group = GROUP_FILTERS[rooms];
  return (rec) => group(rec.rooms) && recordCounts(rec, status);
}

/** The window of absorption, gone lots and days on market (§10.5), days. */
export const WINDOW = 30;

/** The summary of a project without snapshots (none kept). */
export const EMPTY_SUMMARY: PaceSummary = {
  dates: [],
  ends: [],
  stock: [],
  priceSum: [],
  areaSum: [],
  fresh: [],
  lnSum: [],
  pairs: [],
  firstDelta: [],
  removals: [],
};
const _round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/** The summary of one project for the filter `accept` (see {@link paceSummaries}). */
export function paceSummary(
  flats: Segment[][],
  events: Map<number, FlatEvent[]>,
  firstSeen: Map<number, number>,
  dates: number[],
  carry: number,
  accept: (rec: FlatRecord) => boolean,
): PaceSummary {
  return paceSummaries(flats, events, firstSeen, dates, carry, [accept])[0];
}

/**
 * Where a sweep may start instead of the first snapshot: the summaries made before a change, whose
 * entries before snapshot `k` the change left as they were (an import recomputes activity from a few
 * snapshots before the one it brings: everything earlier stands).
 */
export interface SweepFrom {
  k: number;
  previous: PaceSummary[];
}

/**
 * The summaries of one project for several filters: `flats` are its activity segments (each flat's in day
 * order, the flats in id order: the sums are made in that order), `events` its §4.4 events by snapshot
 * day, `firstSeen` each flat's first presence. A segment covers the snapshots from the one it starts on to
 * the last one on or before its end, so the stock of each snapshot is the previous one less the segments
 * that ended and plus those that start there; only the flats that changed are looked at. With `from`, the
 * entries before snapshot `from.k` are the previous summaries' and the sweep starts there: one new day
 * costs that day, not the project's history (events are needed from that snapshot on only).
 */
export function paceSummaries(
  flats: Segment[][],
  events: Map<number, FlatEvent[]>,
  firstSeen: Map<number, number>,
  dates: number[],
  carry: number,
  filters: ((rec: FlatRecord) => boolean)[],
  from?: SweepFrom,
): PaceSummary[] {
  const n = dates.length;
  const k0 = from && from.k > 0 && from.previous.length === filters.length ? Math.min(from.k, n) : 0;
  const ends = dates.map((d, k) => lastCarriedDay(d, k + 1 < n ? dates[k + 1] : null, carry));
  // the segments starting at, and ending before, each snapshot from k0 on, and those active at k0 − 1
  const starts: Segment[][] = dates.map(() => []);
  const stops: Segment[][] = dates.map(() => []);
  const before: Segment[] = [];
  const lastDay = n ? dates[n - 1] : 0;
  for (const segs of flats)
    for (const s of segs) {
      const first = lowerBound(dates, s.startDay);
      const to = lowerBound(dates, (s.endDay ?? lastDay) + 1);
      if (first >= to || to < k0) continue; // covers no snapshot, or none from k0 on
      if (first >= k0) starts[first].push(s);
      else before.push(s);
      if (to < n) stops[to].push(s);
    }
  return filters.map((accept, i) => {
    const prev = k0 > 0 ? from!.previous[i] : null;
    const out: PaceSummary = {
      dates: [...dates],
      ends: [...ends],
      stock: prev ? prev.stock.slice(0, k0) : [],
      priceSum: prev ? prev.priceSum.slice(0, k0) : [],
      areaSum: prev ? prev.areaSum.slice(0, k0) : [],
      fresh: prev ? prev.fresh.slice(0, k0) : [],
      lnSum: prev ? prev.lnSum.slice(0, k0) : [],
      pairs: prev ? prev.pairs.slice(0, k0) : [],
      firstDelta: prev ? prev.firstDelta.slice(0, k0) : [],
      removals: [],
    };
    const active = new Map<number, Segment>();
    let priceSum = 0;
    let area100Sum = 0;
    for (const s of before) {
      if (!accept(s.rec)) continue;
      active.set(s.flatId, s);
      priceSum += s.rec.price;
      area100Sum += area100(s.rec.area);
    }
    const pending: { at: number; flatId: number; back: number[] }[] = [];
    if (prev) {
      // the removals before k0, with the days they were back cut at k0; those of the last 30 days go on
      const cut = dates[k0] ?? Number.POSITIVE_INFINITY;
      for (const r of prev.removals) {
        if (r.k >= k0) break;
        const removal = { k: r.k, flatId: r.flatId, first: r.first, back: r.back.filter((d) => d < cut) };
        out.removals.push(removal);
        pending.push({ at: dates[r.k], flatId: r.flatId, back: removal.back });
      }
    }
    for (let k = k0; k < n; k++) {
      const day = dates[k];
      const delta = new Map<number, number>();
      const move = (flatId: number, by: number) => {
        const first = firstSeen.get(flatId) ?? day;
        delta.set(first, (delta.get(first) ?? 0) + by);
      };
      const ended = new Map<number, Segment>();
      for (const s of stops[k]) {
        if (active.get(s.flatId) !== s) continue;
        active.delete(s.flatId);
        ended.set(s.flatId, s);
        priceSum -= s.rec.price;
        area100Sum -= area100(s.rec.area);
        move(s.flatId, -1);
      }
      // F: the flats active at k − 1 still active at k — those whose segment goes on, and those whose new
      // segment keeps the area; ln(price ratio) is 0 but for the latter
      let pairs = k > 0 ? active.size : 0;
      let lnSum = 0;
      for (const s of starts[k]) {
        if (!accept(s.rec)) continue;
        active.set(s.flatId, s);
        priceSum += s.rec.price;
        area100Sum += area100(s.rec.area);
        move(s.flatId, 1);
        const before = ended.get(s.flatId);
        if (k > 0 && before && area100(before.rec.area) === area100(s.rec.area)) {
          lnSum += Math.log(s.rec.price / before.rec.price);
          pairs++;
        }
      }
      const firstDelta: number[] = [];
      for (const [first, change] of delta) if (change) firstDelta.push(first, change);
      let fresh = 0;
      for (const e of events.get(day) ?? []) {
        if (!accept(e.rec)) continue;
        if (e.kind === 'NEW') fresh++;
        else if (e.kind === 'REMOVED') {
          const removal = {
            k,
            flatId: e.flatId,
            first: firstSeen.get(e.flatId) ?? day,
            back: [] as number[],
          };
          out.removals.push(removal);
          pending.push({ at: day, flatId: e.flatId, back: removal.back });
        }
      }
      // the removals of the last 30 days whose flat is in the stock again here
      let live = 0;
      for (const r of pending) {
        if (day - r.at >= WINDOW) continue;
        pending[live++] = r;
        if (active.has(r.flatId)) r.back.push(day);
      }
      pending.length = live;
      out.stock.push(active.size);
      out.priceSum.push(priceSum);
      out.areaSum.push(area100Sum / 100);
      out.fresh.push(fresh);
      out.lnSum.push(lnSum);
      out.pairs.push(pairs);
      out.firstDelta.push(firstDelta);
    }
    return out;
  });
}

/**
 * The summaries of one project for each key of a partition of its flats (`keyOf` a record's key, or
 * undefined for none): the same as {@link paceSummaries} with one filter `keyOf(rec) === key` per key,
 * but each key's sweep sees only its own segments and events — the summary table's rows (§4.2) cost
 * one pass over the project, not one per row.
 */
export function paceSummariesBy<K>(
  flats: Segment[][],
  events: Map<number, FlatEvent[]>,
  firstSeen: Map<number, number>,
  dates: number[],
  carry: number,
  keyOf: (rec: FlatRecord) => K | undefined,
): Map<K, PaceSummary> {
  const parts = new Map<K, { flats: Segment[]; events: Map<number, FlatEvent[]> }>();
  const part = (key: K) => {
    let p = parts.get(key);
    if (!p) {
      p = { flats: [], events: new Map() };
      parts.set(key, p);
    }
    return p;
  };
  for (const segs of flats)
    for (const s of segs) {
      const key = keyOf(s.rec);
      if (key !== undefined) part(key).flats.push(s);
    }
  for (const [day, list] of events)
    for (const e of list) {
      const key = keyOf(e.rec);
      if (key === undefined) continue;
      const byDay = part(key).events;
      const onDay = byDay.get(day);
      if (onDay) onDay.push(e);
      else byDay.set(day, [e]);
    }
  const out = new Map<K, PaceSummary>();
  for (const [key, p] of parts)
    out.set(key, paceSummaries([p.flats], p.events, firstSeen, dates, carry, [() => true])[0]);
  return out;
}
