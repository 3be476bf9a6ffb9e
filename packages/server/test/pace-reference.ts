import type { RoomGroup } from '@cena-metra/contract';
import { carries, lastCarriedDay } from '../src/analytics/carry.js';
import { area100 } from '../src/analytics/cube.js';
import type { FlatEvent } from '../src/analytics/events.js';
import { ProjectModel } from '../src/analytics/model.js';
import type { PacePoint, UnionPoint } from '../src/analytics/pace-union.js';
import { GROUP_FILTERS } from '../src/analytics/stats.js';
import type { FlatRecord, Segment } from '../src/analytics/types.js';
import { fromDay } from '../src/lib/days.js';
import type { OracleSnapshot } from './oracle.js';

// §10.5 and §10.6 read day by day, flat by flat: what the engine's sweeps and summaries are held to.

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * Sales pace of DESIGN §10.5 for each day with data in [from, to]: `flats` are the activity segments,
 * `events` the §4.4 events by snapshot day, `firstSeen` each flat's first presence, `accept` the filter
 * (building, rooms group, status) applied to the record a figure counts. Windows are the snapshot dates in
 * (D − W, D].
 */
export function referencePace(
  flats: Segment[][],
  events: Map<number, FlatEvent[]>,
  firstSeen: Map<number, number>,
  dates: number[],
  from: number,
  to: number,
  carry: number,
  accept: (rec: FlatRecord) => boolean = () => true,
): PacePoint[] {
  const n = dates.length;
  if (n === 0) return [];
  const lastDay = dates[n - 1];
  /** the flats active on a day, with their record there */
  const activeOn = (day: number) => {
    const out = new Map<number, FlatRecord>();
    for (const segs of flats)
      for (const s of segs)
        if (s.startDay <= day && (s.endDay ?? lastDay) >= day) {
          if (accept(s.rec)) out.set(s.flatId, s.rec);
          break;
        }
    return out;
  };
  /** whether `day` has data: a snapshot on or before it within C days, not after the last */
  const hasData = (day: number) => {
    let k = -1;
    for (let i = 0; i < n && dates[i] <= day; i++) k = i;
    return k >= 0 && day <= lastDay && carries(dates[k], day, carry);
  };
  /** the events of the snapshots in (day − w, day] that pass the filter, with their snapshot day */
  const inWindow = (day: number, w: number) => {
    const list: { e: FlatEvent; day: number }[] = [];
    for (const snapshotDay of dates)
      if (snapshotDay > day - w && snapshotDay <= day)
        for (const e of events.get(snapshotDay) ?? []) if (accept(e.rec)) list.push({ e, day: snapshotDay });
    return list;
  };
  const out: PacePoint[] = [];
  for (let k = 0; k < n; k++) {
    const first = Math.max(from, dates[k]);
    const last = Math.min(to, lastCarriedDay(dates[k], k + 1 < n ? dates[k + 1] : null, carry));
    for (let day = first; day <= last; day++) {
      const stock = activeOn(day);
      // a flat that came back is not gone
      const count = (w: number, kind: 'NEW' | 'REMOVED') =>
        inWindow(day, w).filter(({ e }) => e.kind === kind && (kind === 'NEW' || !stock.has(e.flatId)));
      const new30 = count(30, 'NEW').length;
      const gone30 = count(30, 'REMOVED');
      const before = day - 30;
      const stockBefore = hasData(before) ? activeOn(before).size : 0;
      const denominator = stockBefore + new30;
      // §10.5 (amended 2026-11-24): no absorption unless D − 30 has data
      const whole = hasData(before);
      out.push({
        date: fromDay(day),
        stock: stock.size,
        new7: count(7, 'NEW').length,
        new30,
        gone7: count(7, 'REMOVED').length,
        gone30: gone30.length,
        absorption: whole && denominator ? round2((gone30.length / denominator) * 100) : null,
        monthsOfSupply: gone30.length ? round2(stock.size / gone30.length) : null,
        medianDaysOnMarket: median(gone30.map(({ e, day: at }) => at - (firstSeen.get(e.flatId) ?? at))),
        medianStockAge: median([...stock.keys()].map((id) => day - (firstSeen.get(id) ?? day))),
      });
    }
  }
  return out;
}

/**
 * The same-flat price index of DESIGN §10.6. Average ppm moves with the mix of what is left on sale; the
 * index does not: for consecutive days with data d′ < d, F = the flats active on both with the same area
 * (±0.01 m²), r_d = exp(mean over F of ln(price_d / price_d′)) (1 when F is empty), I = 100 on the first day
 * with data in the range, I(d) = I(d′) × r_d.
 *
 * A day's state is its latest snapshot's, so r is 1 between snapshots and the series moves only on
 * snapshot days; `flats` are each flat's activity segments (full knowledge, §4.1 with §10.1 and §10.4).
 */
export function referenceIndex(
  flats: Segment[][],
  dates: number[],
  from: number,
  to: number,
  carry: number,
  group: RoomGroup = 'all',
): { date: string; index: number }[] {
  const accept = GROUP_FILTERS[group];
  const out: { date: string; index: number }[] = [];
  const n = dates.length;
  if (n === 0) return out;
  /** each flat's price and area at snapshot k, when active there and in the group */
  const stateAt = (k: number) => {
    const day = dates[k];
    const m = new Map<number, { price: number; area100: number }>();
    for (const segs of flats)
      for (const s of segs)
        if (s.startDay <= day && (s.endDay ?? dates[n - 1]) >= day && accept(s.rec.rooms)) {
          m.set(s.flatId, { price: s.rec.price, area100: area100(s.rec.area) });
          break;
        }
    return m;
  };
  let index = 100;
  let previous: Map<number, { price: number; area100: number }> | null = null;
  for (let k = 0; k < n; k++) {
    const first = Math.max(from, dates[k]);
    const last = Math.min(to, lastCarriedDay(dates[k], k + 1 < n ? dates[k + 1] : null, carry));
    if (first > last) continue;
    const now = stateAt(k);
    if (previous && first === dates[k]) {
      let sum = 0;
      let count = 0;
      for (const [flatId, p] of now) {
        const before = previous.get(flatId);
        if (!before || before.area100 !== p.area100) continue;
        sum += Math.log(p.price / before.price);
        count++;
      }
      if (count) index *= Math.exp(sum / count);
    }
    previous = now;
    for (let day = first; day <= last; day++)
      out.push({ date: fromDay(day), index: Math.round(index * 100) / 100 });
  }
  return out;
}

/** A project's timeline as the engine derives it: segments, events, first presences, snapshot days. */
export interface Timeline {
  flats: Segment[][];
  events: Map<number, FlatEvent[]>;
  firstSeen: Map<number, number>;
  dates: number[];
}

/** The engine's model of a random project's snapshots, read as a timeline. */
export function timelineOf(snaps: OracleSnapshot[], grace: number, carry: number): Timeline {
  const model = new ProjectModel(1, grace, 0, carry);
  const ids = new Map<string, number>();
  for (const s of snaps) {
    const state = new Map<number, FlatRecord>();
    for (const [id, rec] of s.flats) {
      if (!ids.has(id)) ids.set(id, ids.size + 1);
      state.set(ids.get(id)!, rec);
    }
    model.applySnapshot(s.day, state, s.complete);
  }
  const { events } = model.recomputeAll();
  return { flats: model.allSegments(), events, firstSeen: model.firstPresences(), dates: model.dates };
}

/**
 * §10.5–10.6 and the weighted average ppm over a union of projects, day by day, by the words: the union's
 * stock is every flat active on D in its own project; a window holds the events of every project's
 * snapshots in it; the index's F is every flat active on both days with data; medians over all flats.
 */
export function referenceUnion(
  projects: Timeline[],
  from: number,
  to: number,
  carry: number,
  accept: (rec: FlatRecord) => boolean,
): UnionPoint[] {
  const activeOn = (t: Timeline, day: number) => {
    const out = new Map<number, FlatRecord>();
    const n = t.dates.length;
    let k = -1;
    for (let i = 0; i < n && t.dates[i] <= day; i++) k = i;
    if (k < 0 || day > t.dates[n - 1] || !carries(t.dates[k], day, carry)) return null;
    for (const segs of t.flats)
      for (const s of segs)
        if (s.startDay <= t.dates[k] && (s.endDay ?? t.dates[n - 1]) >= t.dates[k]) {
          if (accept(s.rec)) out.set(s.flatId, s.rec);
          break;
        }
    return out;
  };
  const out: UnionPoint[] = [];
  let index = 100;
  let previous: (Map<number, FlatRecord> | null)[] | null = null;
  for (let day = from; day <= to; day++) {
    const stocks = projects.map((t) => activeOn(t, day));
    if (stocks.every((s) => s === null)) continue;
    let stock = 0;
    let prices = 0;
    let areas = 0;
    const ages: number[] = [];
    const win = { new7: 0, new30: 0, gone7: 0, gone30: 0 };
    const daysOnMarket: number[] = [];
    let stockBefore = 0;
    let whole = false;
    let ln = 0;
    let pairs = 0;
    projects.forEach((t, p) => {
      const now = stocks[p] ?? new Map<number, FlatRecord>();
      stock += now.size;
      for (const [id, rec] of now) {
        prices += rec.price;
        areas += rec.area;
        ages.push(day - (t.firstSeen.get(id) ?? day));
        const was = previous?.[p]?.get(id);
        if (was && stocks[p] && area100(was.area) === area100(rec.area)) {
          ln += Math.log(rec.price / was.price);
          pairs++;
        }
      }
      const monthAgo = activeOn(t, day - 30);
      if (monthAgo) whole = true;
      stockBefore += monthAgo?.size ?? 0;
      for (const snapshotDay of t.dates)
        if (snapshotDay > day - 30 && snapshotDay <= day)
          for (const e of t.events.get(snapshotDay) ?? []) {
            if (!accept(e.rec)) continue;
            const in7 = snapshotDay > day - 7;
            if (e.kind === 'NEW') {
              win.new30++;
              if (in7) win.new7++;
            } else if (e.kind === 'REMOVED' && !now.has(e.flatId)) {
              win.gone30++;
              if (in7) win.gone7++;
              daysOnMarket.push(snapshotDay - (t.firstSeen.get(e.flatId) ?? snapshotDay));
            }
          }
    });
    if (previous && pairs) index *= Math.exp(ln / pairs);
    previous = stocks;
    const denominator = stockBefore + win.new30;
    out.push({
      date: fromDay(day),
      stock,
      ...win,
      absorption: whole && denominator ? round2((win.gone30 / denominator) * 100) : null,
      monthsOfSupply: win.gone30 ? round2(stock / win.gone30) : null,
      medianDaysOnMarket: median(daysOnMarket),
      medianStockAge: median(ages),
      index: Math.round(index * 100) / 100,
      avgMeterPrice: areas ? round2(prices / areas) : null,
    });
  }
  return out;
}
