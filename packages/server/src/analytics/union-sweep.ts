import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import type { UnionPoint } from './pace-points.js';
import { type PaceSummary, WINDOW } from './pace-summary.js';

/**
 * The union sweep (§10.5–10.6 over a union of projects): the pace, the same-flat index and the average ppm
 * of every day with data. Made in two passes so that a market of 5,000 projects × a year (1.8 M
 * project-days) reads each project's arrays in order, not 5,000 projects' arrays on each day:
 * 1. project by project, its figures added into the union's day arrays (every floating sum added in the
 *    projects' order for each day — the order a day-by-day sweep adds them, so the same bits) and its
 *    medians' events (first presences entering and leaving the stock, lots entering and leaving the
 *    30-day window) put in the buckets of their days;
 * 2. day by day, the buckets applied to the two multisets and the medians read.
 */

const round2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * A multiset of days with counts: the first presences of a union's stock, or the days on market of the lots
 * gone in its 30-day window, with their median. A count per day and a cursor kept at the median: an add is
 * O(1), and the cursor moves as far as the median does from one day to the next (a few days), so a year
 * of 5,000 projects' millions of events costs no search each (a Fenwick tree's 12 steps an add did).
 */
export class DayCounts {
  private readonly counts: Float64Array;
  total = 0;
  /** the cursor, and the count of the days before it */
  private at = 0;
  private below = 0;
  constructor(
    private readonly min: number,
    size: number,
  ) {
    this.counts = new Float64Array(size);
  }
  add(day: number, count: number): void {
    const i = day - this.min;
    this.counts[i] += count;
    this.total += count;
    if (i < this.at) this.below += count;
  }
  /** the day of the element with 1-based rank `rank` (1 ≤ rank ≤ total) */
  private day(rank: number): number {
    const counts = this.counts;
    while (this.below + counts[this.at] < rank) this.below += counts[this.at++];
    while (this.at > 0 && this.below >= rank) this.below -= counts[--this.at];
    return this.min + this.at;
  }
  median(): number | null {
    if (this.total === 0) return null;
    const half = this.total >> 1;
    return this.total % 2 ? this.day(half + 1) : (this.day(half) + this.day(half + 1)) / 2;
  }
}

/** What the same-flat index (§10.6) reads of a project's summary, as plain or typed arrays. */
export interface IndexSummary {
  dates: ArrayLike<number>;
  ends: ArrayLike<number>;
  stock: ArrayLike<number>;
  lnSum: ArrayLike<number>;
  pairs: ArrayLike<number>;
}

/**
 * The union's days with data in [start, to] (a snapshot's data run from its day to its last carried day):
 * `days` in order, and `at[d − start]` the place of day d among them (−1: no data that day).
 */
function unionDays(used: IndexSummary[], start: number, to: number) {
  const span = to - start + 1;
  const at = new Int32Array(span).fill(-1);
  for (const s of used) {
    for (let k = Math.max(0, lowerBound(s.dates, start) - 1); k < s.dates.length && s.dates[k] <= to; k++) {
      const end = Math.min(s.ends[k], to);
      for (let d = Math.max(s.dates[k], start); d <= end; d++) at[d - start] = 0;
    }
  }
  const days: number[] = [];
  for (let d = 0; d < span; d++) if (at[d] === 0) at[d] = days.push(start + d) - 1;
  return { at, days };
}

/**
 * The index's sums of a union on each of its days with data in [start, to], as `unionPace` makes them: a
 * project counts on a day when it has data there and on the union's previous day with data — Σ ln and the
 * pairs of its new snapshot, or its stock (ln 0) when its snapshot is the same. Made project by project
 * (each project's days read in order) but added in the projects' order for each day — project 0, 1, … —
 * as a day-by-day sweep adds them. Null when no day has data.
 */
export function unionDaySums(used: IndexSummary[], start: number, to: number) {
  if (start > to) return null;
  const { at, days } = unionDays(used, start, to);
  if (days.length === 0) return null;
  return { days, ...indexSums(used, start, to, at, days) };
}

function indexSums(used: IndexSummary[], start: number, to: number, at: Int32Array, days: number[]) {
  const lnSums = new Float64Array(days.length);
  const pairSums = new Float64Array(days.length);
  for (const s of used) {
    // snapshot by snapshot: the union has data on every day a project has, so the union's day before a
    // carried day is the day before, in the same snapshot (its stock, ln 0); before a snapshot's first day
    // it is the union's previous day with data, where the project counts if its previous snapshot reaches
    // it (Σ ln and the pairs of the new snapshot). The union's first day counts nothing.
    const { dates, ends, stock, lnSum, pairs } = s;
    const n = dates.length;
    for (let k = Math.max(0, lowerBound(dates, start) - 1); k < n && dates[k] <= to; k++) {
      const end = Math.min(ends[k], to);
      let d = Math.max(dates[k], start);
      if (d > end) continue;
      // a snapshot begun before `start` has its first day in range on the union's first
      const j = at[d - start];
      if (j > 0 && k > 0 && ends[k - 1] >= days[j - 1]) {
        lnSums[j] += lnSum[k];
        pairSums[j] += pairs[k];
      }
      for (d++; d <= end; d++) pairSums[at[d - start]] += stock[k];
    }
  }
  return { lnSums, pairSums };
}

/**
 * Events of one multiset by day: (day, value, count) in typed arrays as they come, then sorted by day
 * (counting sort, stable) and applied day by day — millions of events without an object or array each.
 */
class Buckets {
  private days = new Int32Array(1024);
  private pairs = new Int32Array(2048);
  private length = 0;
  private starts: Int32Array | null = null;
  private sorted: Int32Array | null = null;
  constructor(
    private readonly start: number,
    private readonly span: number,
  ) {}
  add(day: number, value: number, count: number): void {
    const i = day - this.start;
    if (i < 0 || i >= this.span) return;
    if (this.length === this.days.length) {
      const days = new Int32Array(this.days.length * 2);
      days.set(this.days);
      this.days = days;
      const pairs = new Int32Array(this.pairs.length * 2);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    this.days[this.length] = i;
    this.pairs[2 * this.length] = value;
    this.pairs[2 * this.length + 1] = count;
    this.length++;
  }
  /** the events of the day `i` (from the start), applied to the multiset */
  apply(i: number, to: DayCounts): void {
    if (!this.sorted) this.sort();
    const starts = this.starts!;
    const sorted = this.sorted!;
    for (let e = starts[i]; e < starts[i + 1]; e++) to.add(sorted[2 * e], sorted[2 * e + 1]);
  }
  private sort(): void {
    const starts = new Int32Array(this.span + 1);
    for (let e = 0; e < this.length; e++) starts[this.days[e] + 1]++;
    for (let i = 0; i < this.span; i++) starts[i + 1] += starts[i];
    const next = starts.slice(0, this.span);
    const sorted = new Int32Array(2 * this.length);
    for (let e = 0; e < this.length; e++) {
      const at = next[this.days[e]]++;
      sorted[2 * at] = this.pairs[2 * e];
      sorted[2 * at + 1] = this.pairs[2 * e + 1];
    }
    this.starts = starts;
    this.sorted = sorted;
  }
}

/** A project's stock's first presences at a snapshot, added up from its deltas as the snapshots go on. */
function firstsOf(s: PaceSummary): (k: number) => Map<number, number> {
  const firsts = new Map<number, number>();
  let done = -1;
  return (k) => {
    for (; done < k; ) {
      const delta = s.firstDelta[++done];
      for (let j = 0; j < delta.length; j += 2)
        firsts.set(delta[j], (firsts.get(delta[j]) ?? 0) + delta[j + 1]);
    }
    return firsts;
  };
}

/** The union's figures of each day with data, added project by project. */
interface DayFigures {
  stock: Float64Array;
  priceSum: Float64Array;
  areaSum: Float64Array;
  stockBefore: Float64Array;
  whole: Uint8Array;
  new7: Float64Array;
  new30: Float64Array;
  gone7: Float64Array;
  gone30: Float64Array;
  /** per day, the days on market of the lots whose flat is back in the stock: out of the median that day */
  held: (number[] | undefined)[];
}

/**
 * One project's part of the union over [from, to]: its figures on the union's days (from its first list to
 * 30 days after its last carried day, when its windows are empty), and its medians' events.
 */
function addProject(
  s: PaceSummary,
  from: number,
  to: number,
  at: Int32Array,
  days: number[],
  f: DayFigures,
  firstEvents: Buckets,
  domEvents: Buckets,
): void {
  const { dates, ends, removals } = s;
  const n = dates.length;
  const lastEnd = ends[n - 1];
  // the stock's first presences: whole when the project's data begin or come back, by deltas while they go
  // on, whole out when they stop
  const firstsAt = firstsOf(s);
  let prevEnd = Number.NEGATIVE_INFINITY;
  let prevK = -1;
  for (let k = Math.max(0, lowerBound(dates, from + 1) - 1); k < n && dates[k] <= to; k++) {
    const a = Math.max(dates[k], from);
    const b = Math.min(ends[k], to);
    if (a > b) continue;
    if (prevEnd === a - 1) {
      const delta = s.firstDelta[k];
      for (let j = 0; j < delta.length; j += 2) firstEvents.add(a, delta[j], delta[j + 1]);
    } else {
      if (prevK >= 0)
        for (const [first, count] of firstsAt(prevK)) firstEvents.add(prevEnd + 1, first, -count);
      for (const [first, count] of firstsAt(k)) firstEvents.add(a, first, count);
    }
    prevEnd = b;
    prevK = k;
  }
  if (prevK >= 0 && prevEnd < to)
    for (const [first, count] of firstsAt(prevK)) firstEvents.add(prevEnd + 1, first, -count);
  // the removals' days on market: in the window from their day, out of it 30 days later
  const removalDays = removals.map((r) => dates[r.k]);
  for (let r = 0; r < removals.length; r++) {
    const day = removalDays[r];
    if (day + WINDOW <= from || day > to) continue;
    const dom = day - removals[r].first;
    domEvents.add(Math.max(day, from), dom, 1);
    domEvents.add(day + WINDOW, dom, -1);
  }
  // per snapshot, the removals whose flat is in the stock again there (not gone while it is current)
  const backAt: (number[] | undefined)[] = new Array(n);
  for (let r = 0; r < removals.length; r++)
    for (const day of removals[r].back) {
      const i = lowerBound(dates, day);
      const list = backAt[i];
      if (list) list.push(r);
      else backAt[i] = [r];
    }
  let cum = 0;
  const cumFresh = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) cumFresh[k + 1] = cum += s.fresh[k];
  let k = -1;
  let monthAgo = -1;
  let from7 = 0;
  let from30 = 0;
  let enter = 0;
  let exit30 = 0;
  let exit7 = 0;
  const first = Math.max(from, dates[0]);
  const last = Math.min(to, lastEnd + WINDOW);
  if (first > last) return;
  for (let j = at[first - from] >= 0 ? at[first - from] : lowerBound(days, first); j < days.length; j++) {
    const day = days[j];
    if (day > last) break;
    while (k + 1 < n && dates[k + 1] <= day) k++;
    const has = k >= 0 && day <= ends[k];
    if (has) {
      f.stock[j] += s.stock[k];
      f.priceSum[j] += s.priceSum[k];
      f.areaSum[j] += s.areaSum[k];
    }
    while (monthAgo + 1 < n && dates[monthAgo + 1] <= day - 30) monthAgo++;
    if (monthAgo >= 0 && day - 30 <= ends[monthAgo]) {
      f.whole[j] = 1;
      f.stockBefore[j] += s.stock[monthAgo];
    }
    while (from7 < n && dates[from7] < day - 6) from7++;
    while (from30 < n && dates[from30] < day - 29) from30++;
    if (k >= from7) f.new7[j] += cumFresh[k + 1] - cumFresh[from7];
    if (k >= from30) f.new30[j] += cumFresh[k + 1] - cumFresh[from30];
    while (enter < removals.length && removalDays[enter] <= day) enter++;
    while (exit30 < enter && removalDays[exit30] <= day - WINDOW) exit30++;
    if (exit7 < exit30) exit7 = exit30;
    while (exit7 < enter && removalDays[exit7] <= day - 7) exit7++;
    let gone30 = enter - exit30;
    let gone7 = enter - exit7;
    const back = has ? backAt[k] : undefined;
    if (back)
      for (const r of back) {
        if (r < exit30 || r >= enter) continue;
        gone30--;
        if (r >= exit7) gone7--;
        const dom = removalDays[r] - removals[r].first;
        const list = f.held[j];
        if (list) list.push(dom);
        else f.held[j] = [dom];
      }
    f.gone30[j] += gone30;
    f.gone7[j] += gone7;
  }
}

/**
 * Sales pace, the same-flat index and the average ppm of a union of projects (one project is a union of
 * one) for each day in [from, to] on which some project has data, by the words of §10.5–10.6 over the
 * union's flats: the stock is every project's stock, a window holds every project's events, medians run
 * over all of the union's flats, the index's F is every flat active on both days.
 */
export function unionPace(
  summaries: PaceSummary[],
  from: number,
  to: number,
  /** where to put each point's day and index sums (Σ ln, pairs) too: what `unionSpan` keeps */
  sums?: { days: number[]; lnSums: number[]; pairSums: number[] },
): UnionPoint[] {
  const out: UnionPoint[] = [];
  const used = summaries.filter((s) => s.dates.length > 0);
  if (used.length === 0 || from > to) return out;
  const { at, days } = unionDays(used, from, to);
  if (days.length === 0) return out;
  const size = days.length;
  const f: DayFigures = {
    stock: new Float64Array(size),
    priceSum: new Float64Array(size),
    areaSum: new Float64Array(size),
    stockBefore: new Float64Array(size),
    whole: new Uint8Array(size),
    new7: new Float64Array(size),
    new30: new Float64Array(size),
    gone7: new Float64Array(size),
    gone30: new Float64Array(size),
    held: new Array(size),
  };
  let minDay = used[0].dates[0];
  let longest = 0;
  for (const s of used) {
    minDay = Math.min(minDay, s.dates[0]);
    for (const r of s.removals) longest = Math.max(longest, s.dates[r.k] - r.first);
  }
  const span = to - from + 1;
  const firstEvents = new Buckets(from, span);
  const domEvents = new Buckets(from, span);
  for (const s of used) addProject(s, from, to, at, days, f, firstEvents, domEvents);
  const { lnSums, pairSums } = indexSums(used, from, to, at, days);
  const firsts = new DayCounts(minDay, Math.max(1, to - minDay + 1));
  const onMarket = new DayCounts(0, longest + 1);
  let index = 100;
  for (let i = 0; i < span; i++) {
    firstEvents.apply(i, firsts);
    domEvents.apply(i, onMarket);
    const j = at[i];
    if (j < 0) continue;
    const day = from + i;
    const held = f.held[j];
    if (held) for (const dom of held) onMarket.add(dom, -1);
    const medianDaysOnMarket = onMarket.median();
    if (held) for (const dom of held) onMarket.add(dom, 1);
    if (j > 0 && pairSums[j]) index *= Math.exp(lnSums[j] / pairSums[j]);
    sums?.days.push(day);
    sums?.lnSums.push(lnSums[j]);
    sums?.pairSums.push(pairSums[j]);
    const stock = f.stock[j];
    const gone30 = f.gone30[j];
    const denominator = f.stockBefore[j] + f.new30[j];
    const medianFirst = firsts.median();
    out.push({
      date: fromDay(day),
      stock,
      new7: f.new7[j],
      new30: f.new30[j],
      gone7: f.gone7[j],
      gone30,
      absorption: f.whole[j] && denominator ? round2((gone30 / denominator) * 100) : null,
      monthsOfSupply: gone30 ? round2(stock / gone30) : null,
      medianDaysOnMarket,
      medianStockAge: medianFirst === null ? null : day - medianFirst,
      index: Math.round(index * 100) / 100,
      avgMeterPrice: f.areaSum[j] ? round2(f.priceSum[j] / f.areaSum[j]) : null,
    });
  }
  return out;
}
