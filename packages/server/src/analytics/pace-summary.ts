import { ROOM_GROUPS, type RoomGroup, STATS_STATUSES, type StatsStatus } from '@cena-metra/contract';
import { fromDay } from '../lib/days.js';
import { lastCarriedDay } from './carry.js';
import { area100 } from './cube.js';
import { type FlatEvent, lowerBound } from './events.js';
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

/** One day of sales pace (DESIGN §10.5). */
export interface PacePoint {
  date: string;
  stock: number;
  new7: number;
  new30: number;
  gone7: number;
  gone30: number;
  /** % of what could have sold in 30 days that did: gone₃₀ / (stock on D − 30 + new₃₀) × 100 */
  absorption: number | null;
  monthsOfSupply: number | null;
  /** median of REMOVED date − first presence over the flats gone in the 30-day window */
  medianDaysOnMarket: number | null;
  /** median of D − first presence over the stock */
  medianStockAge: number | null;
}

/** A day of a union's pace with its same-flat index and weighted average ppm. */
export interface UnionPoint extends PacePoint {
  index: number;
  avgMeterPrice: number | null;
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

const WINDOW = 30;
const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

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

/** A project's sales pace (§10.5) from its summary for a filter: a union of one, without index and ppm. */
export function projectPace(summary: PaceSummary, from: number, to: number): PacePoint[] {
  return unionPace([summary], from, to).map(({ index: _index, avgMeterPrice: _avg, ...point }) => point);
}

/** A multiset of days with counts (Fenwick tree): the first presences of a union's stock, or the days on
 *  market of the lots gone in its 30-day window, with their median in O(log n). */
class DayCounts {
  private readonly tree: Float64Array;
  total = 0;
  constructor(
    private readonly min: number,
    size: number,
  ) {
    this.tree = new Float64Array(size + 1);
  }
  add(day: number, count: number): void {
    this.total += count;
    for (let i = day - this.min + 1; i < this.tree.length; i += i & -i) this.tree[i] += count;
  }
  /** the day of the element with 1-based rank `rank` */
  at(rank: number): number {
    let pos = 0;
    let rest = rank;
    let step = 1;
    while (step * 2 < this.tree.length) step *= 2;
    for (; step > 0; step >>= 1) {
      const nextPos = pos + step;
      if (nextPos < this.tree.length && this.tree[nextPos] < rest) {
        pos = nextPos;
        rest -= this.tree[nextPos];
      }
    }
    return this.min + pos;
  }
  median(): number | null {
    if (this.total === 0) return null;
    const half = this.total >> 1;
    return this.total % 2 ? this.at(half + 1) : (this.at(half) + this.at(half + 1)) / 2;
  }
}

/** One project's position in a union sweep. */
interface Cursor {
  s: PaceSummary;
  /** the latest snapshot ≤ the day (−1: none yet) */
  k: number;
  /** whether the day has data (then the stock's first presences are in the union's tree) */
  has: boolean;
  firsts: Map<number, number>;
  cumFresh: number[];
  removalDays: number[];
  /** the removals entered into the window (those before `enter`), those left its 30 and its 7 days */
  enter: number;
  exit30: number;
  exit7: number;
  /** per snapshot, the removals whose flat is in the stock again there (not gone while it is current) */
  backAt: number[][];
}

/**
 * Sales pace, the same-flat index and the average ppm of a union of projects (one project is a union of
 * one) for each day in [from, to] on which some project has data, by the words of §10.5–10.6 over the
 * union's flats: the stock is every project's stock, a window holds every project's events, medians run
 * over all of the union's flats, the index's F is every flat active on both days.
 */
export function unionPace(summaries: PaceSummary[], from: number, to: number): UnionPoint[] {
  const out: UnionPoint[] = [];
  const used = summaries.filter((s) => s.dates.length > 0);
  if (used.length === 0 || from > to) return out;
  const minDay = Math.min(...used.map((s) => s.dates[0]));
  const tree = new DayCounts(minDay, Math.max(1, to - minDay + 1));
  const cursors: Cursor[] = used.map((s) => {
    const cumFresh = [0];
    for (const f of s.fresh) cumFresh.push(cumFresh[cumFresh.length - 1] + f);
    const backAt: number[][] = s.dates.map(() => []);
    s.removals.forEach((r, i) => {
      for (const day of r.back) backAt[lowerBound(s.dates, day)].push(i);
    });
    return {
      s,
      k: -1,
      has: false,
      firsts: new Map(),
      cumFresh,
      removalDays: s.removals.map((r) => s.dates[r.k]),
      enter: 0,
      exit30: 0,
      exit7: 0,
      backAt,
    };
  });
  // the days on market of the lots in the union's 30-day window, less those back in the stock
  let longest = 0;
  for (const s of used) for (const r of s.removals) longest = Math.max(longest, s.dates[r.k] - r.first);
  const onMarket = new DayCounts(0, longest + 1);
  const dom = (c: Cursor, r: number) => c.removalDays[r] - c.s.removals[r].first;
  const advance = (c: Cursor, day: number) => {
    const s = c.s;
    while (c.k + 1 < s.dates.length && s.dates[c.k + 1] <= day) {
      c.k++;
      const delta = s.firstDelta[c.k];
      for (let i = 0; i < delta.length; i += 2) {
        c.firsts.set(delta[i], (c.firsts.get(delta[i]) ?? 0) + delta[i + 1]);
        if (c.has) tree.add(delta[i], delta[i + 1]);
      }
    }
    const has = c.k >= 0 && day <= s.ends[c.k];
    if (has !== c.has) for (const [first, count] of c.firsts) tree.add(first, has ? count : -count);
    c.has = has;
  };
  const stockOn = (c: Cursor, day: number) => {
    const k = lowerBound(c.s.dates, day + 1) - 1;
    return k >= 0 && day <= c.s.ends[k] ? c.s.stock[k] : 0;
  };
  let index = 100;
  let started = false;
  // each project's snapshot on the previous day with data, or −1 when it had none there
  let before: number[] = [];
  for (let day = from; day <= to; day++) {
    for (const c of cursors) advance(c, day);
    if (!cursors.some((c) => c.has)) continue;
    let stock = 0;
    let priceSum = 0;
    let areaSum = 0;
    let stockBefore = 0;
    let lnSum = 0;
    let pairs = 0;
    const win = { new7: 0, new30: 0, gone7: 0, gone30: 0 };
    // the removals taken out of the tree for this day only (their flat is back): [cursor, removal] pairs
    const held: [Cursor, number][] = [];
    cursors.forEach((c, i) => {
      const s = c.s;
      if (c.has) {
        stock += s.stock[c.k];
        priceSum += s.priceSum[c.k];
        areaSum += s.areaSum[c.k];
        if (started && before[i] >= 0) {
          if (before[i] !== c.k) {
            lnSum += s.lnSum[c.k];
            pairs += s.pairs[c.k];
          } else pairs += s.stock[c.k];
        }
      }
      stockBefore += stockOn(c, day - 30);
      for (const w of [7, 30] as const) {
        const j = lowerBound(s.dates, day - w + 1);
        if (c.k >= j) win[w === 7 ? 'new7' : 'new30'] += c.cumFresh[c.k + 1] - c.cumFresh[j];
      }
      // the 30 days' removals slide in and out of the tree, the last 7 counted apart; a flat that came
      // back (in the stock at the current snapshot) is not gone, so it is held out of the tree for the day
      const days = c.removalDays;
      for (; c.enter < days.length && days[c.enter] <= day; c.enter++) onMarket.add(dom(c, c.enter), 1);
      for (; c.exit30 < c.enter && days[c.exit30] <= day - WINDOW; c.exit30++)
        onMarket.add(dom(c, c.exit30), -1);
      if (c.exit7 < c.exit30) c.exit7 = c.exit30;
      for (; c.exit7 < c.enter && days[c.exit7] <= day - 7; c.exit7++);
      win.gone30 += c.enter - c.exit30;
      win.gone7 += c.enter - c.exit7;
      if (c.has)
        for (const r of c.backAt[c.k]) {
          if (r < c.exit30 || r >= c.enter) continue;
          win.gone30--;
          if (r >= c.exit7) win.gone7--;
          onMarket.add(dom(c, r), -1);
          held.push([c, r]);
        }
    });
    const medianDaysOnMarket = onMarket.median();
    for (const [c, r] of held) onMarket.add(dom(c, r), 1);
    if (started && pairs) index *= Math.exp(lnSum / pairs);
    started = true;
    before = cursors.map((c) => (c.has ? c.k : -1));
    const denominator = stockBefore + win.new30;
    const medianFirst = tree.median();
    out.push({
      date: fromDay(day),
      stock,
      ...win,
      absorption: denominator ? round2((win.gone30 / denominator) * 100) : null,
      monthsOfSupply: win.gone30 ? round2(stock / win.gone30) : null,
      medianDaysOnMarket,
      medianStockAge: medianFirst === null ? null : day - medianFirst,
      index: Math.round(index * 100) / 100,
      avgMeterPrice: areaSum ? round2(priceSum / areaSum) : null,
    });
  }
  return out;
}

/**
 * The same-flat index alone of a union (as `unionPace` reads it): each day with data in [from, to], chained
 * from 100 on the first, without the windows and medians of pace.
 */
export function unionIndex(
  summaries: PaceSummary[],
  from: number,
  to: number,
): { date: string; index: number }[] {
  const used = summaries.filter((s) => s.dates.length > 0);
  const out: { date: string; index: number }[] = [];
  const ks = used.map(() => -1);
  let before: number[] | null = null;
  let index = 100;
  for (let day = from; day <= to; day++) {
    let any = false;
    let lnSum = 0;
    let pairs = 0;
    const now = used.map((s, i) => {
      while (ks[i] + 1 < s.dates.length && s.dates[ks[i] + 1] <= day) ks[i]++;
      const k = ks[i];
      const has = k >= 0 && day <= s.ends[k];
      if (!has) return -1;
      any = true;
      if (before && before[i] >= 0) {
        if (before[i] !== k) {
          lnSum += s.lnSum[k];
          pairs += s.pairs[k];
        } else pairs += s.stock[k];
      }
      return k;
    });
    if (!any) continue;
    if (before && pairs) index *= Math.exp(lnSum / pairs);
    before = now;
    out.push({ date: fromDay(day), index: Math.round(index * 100) / 100 });
  }
  return out;
}
