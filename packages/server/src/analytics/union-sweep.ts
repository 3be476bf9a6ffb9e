import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import { drain, type Steps } from '../lib/steps.js';
import { DayCounts, type DayEvents, dayEvents } from './day-buckets.js';
import type { UnionPoint } from './pace-points.js';
import { type PaceSummary, WINDOW } from './pace-summary.js';
import { type PackedSummary, packSummary } from './packed-summary.js';

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
  return { days, ...drain(indexSums(used, start, to, at, days)) };
}

/** The index's sums, in steps: one a project. */
function* indexSums(
  used: IndexSummary[],
  start: number,
  to: number,
  at: Int32Array,
  days: number[],
): Steps<{ lnSums: Float64Array; pairSums: Float64Array }> {
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
    yield;
  }
  return { lnSums, pairSums };
}

/** A project's stock's first presences at a snapshot, added up from its deltas as the snapshots go on. */
function firstsOf(s: PackedSummary): (k: number) => Map<number, number> {
  const firsts = new Map<number, number>();
  let done = -1;
  return (k) => {
    for (; done < k; ) {
      done++;
      for (let j = s.deltaStart[done]; j < s.deltaStart[done + 1]; j += 2)
        firsts.set(s.delta[j], (firsts.get(s.delta[j]) ?? 0) + s.delta[j + 1]);
    }
    return firsts;
  };
}

/**
 * The union's figures, added project by project: the stock's sums on each day with data (`j`), and the
 * windows' counts as steps on calendar days from the sweep's start (`i`; added up in the last pass). Counts
 * are integers, exact in any order; the floating sums are added in the projects' order on each day.
 */
interface DayFigures {
  stock: Float64Array;
  priceSum: Float64Array;
  areaSum: Float64Array;
  stockBefore: Float64Array;
  whole: Uint8Array;
  /** steps of the NEW events in the last 7 and 30 days, and of the REMOVED ones */
  new7: Int32Array;
  new30: Int32Array;
  gone7: Int32Array;
  gone30: Int32Array;
  /** per day with data, the removals in the windows whose flat is back in the stock that day */
  back7: Int32Array;
  back30: Int32Array;
}

/** An event on day `day` counted in a window of `length` days: its steps within [from, from + span). */
function window(steps: Int32Array, from: number, day: number, length: number, count: number): void {
  const end = day + length - from;
  if (end <= 0) return;
  steps[Math.max(0, day - from)] += count;
  if (end < steps.length) steps[end] -= count;
}

/**
 * A project's removals whose flat is back in the stock within their window (§10.5: not gone while it is):
 * on every union day its snapshot of coming back covers, out of gone₃₀ (gone₇ within a week) and its days on
 * market out of that day's median. The back days of a removal are snapshot days after it, in order.
 */
function subtractBack(
  s: PackedSummary,
  removalDays: Int32Array,
  from: number,
  to: number,
  at: Int32Array,
  f: DayFigures,
  held: DayEvents,
): void {
  const { dates, ends, back, backStart, removalK, removalFirst } = s;
  for (let r = 0; r < removalK.length; r++) {
    const gone = removalDays[r];
    const dom = gone - removalFirst[r];
    let k = removalK[r];
    for (let e = backStart[r]; e < backStart[r + 1]; e++) {
      const day = back[e];
      while (dates[k] < day) k++;
      const last = Math.min(ends[k], to, gone + WINDOW - 1);
      for (let d = Math.max(day, from, gone); d <= last; d++) {
        const j = at[d - from];
        f.back30[j]++;
        if (d - gone < 7) f.back7[j]++;
        held.add(d, dom, 1);
      }
    }
  }
}

/**
 * One project's part of the union over [from, to]: its figures on the union's days (from its first list to
 * 30 days after its last carried day, when its windows are empty), and its medians' events — the days on
 * market of removals whose flat is back in the stock too (out of the median on that day only).
 */
function addProject(
  s: PackedSummary,
  from: number,
  to: number,
  at: Int32Array,
  f: DayFigures,
  events: { firsts: DayEvents; dom: DayEvents; held: DayEvents },
): void {
  const { dates, ends, removalK, removalFirst, deltaStart, delta } = s;
  const n = dates.length;
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
      for (let j = deltaStart[k]; j < deltaStart[k + 1]; j += 2) events.firsts.add(a, delta[j], delta[j + 1]);
    } else {
      if (prevK >= 0)
        for (const [first, count] of firstsAt(prevK)) events.firsts.add(prevEnd + 1, first, -count);
      for (const [first, count] of firstsAt(k)) events.firsts.add(a, first, count);
    }
    prevEnd = b;
    prevK = k;
  }
  if (prevK >= 0 && prevEnd < to)
    for (const [first, count] of firstsAt(prevK)) events.firsts.add(prevEnd + 1, first, -count);
  // the removals' days on market: in the window from their day, out of it 30 days later; the gone lots
  const m = removalK.length;
  const removalDays = new Int32Array(m);
  for (let r = 0; r < m; r++) {
    const day = dates[removalK[r]];
    removalDays[r] = day;
    if (day + WINDOW <= from || day > to) continue;
    const dom = day - removalFirst[r];
    events.dom.add(Math.max(day, from), dom, 1);
    events.dom.add(day + WINDOW, dom, -1);
    window(f.gone30, from, day, WINDOW, 1);
    window(f.gone7, from, day, 7, 1);
  }
  if (s.back.length) subtractBack(s, removalDays, from, to, at, f, events.held);
  // per snapshot: its stock on the days it covers, and 30 days later the stock a month before; the lots new
  const { stock, priceSum, areaSum, fresh } = s;
  for (let k = 0; k < n; k++) {
    const a = dates[k];
    const b = ends[k];
    if (b + 30 < from || a > to) continue;
    for (let d = Math.max(a, from), last = Math.min(b, to); d <= last; d++) {
      const j = at[d - from];
      f.stock[j] += stock[k];
      f.priceSum[j] += priceSum[k];
      f.areaSum[j] += areaSum[k];
    }
    for (let d = Math.max(a + 30, from), last = Math.min(b + 30, to); d <= last; d++) {
      const j = at[d - from];
      if (j < 0) continue;
      f.whole[j] = 1;
      f.stockBefore[j] += stock[k];
    }
    if (fresh[k]) {
      window(f.new30, from, a, 30, fresh[k]);
      window(f.new7, from, a, 7, fresh[k]);
    }
  }
}

/**
 * Sales pace, the same-flat index and the average ppm of a union of projects (one project is a union of
 * one) for each day in [from, to] on which some project has data, by the words of §10.5–10.6 over the
 * union's flats: the stock is every project's stock, a window holds every project's events, medians run
 * over all of the union's flats, the index's F is every flat active on both days.
 */
export function unionPace(
  summaries: readonly (PaceSummary | PackedSummary)[],
  from: number,
  to: number,
  /** where to put each point's day and index sums (Σ ln, pairs) too: what `unionSpan` keeps */
  sums?: { days: number[]; lnSums: number[]; pairSums: number[] },
): UnionPoint[] {
  return drain(unionPaceSteps(summaries, from, to, sums));
}

/** Days of the last pass between two steps of `unionPaceSteps`. */
const DAYS_A_STEP = 64;

/**
 * `unionPace` in steps (lib/steps.ts): it yields after each project's part and after each run of days of the
 * last pass, so a server runs the whole market's sweep in slices of its thread. The same points.
 */
export function* unionPaceSteps(
  summaries: readonly (PaceSummary | PackedSummary)[],
  from: number,
  to: number,
  sums?: { days: number[]; lnSums: number[]; pairSums: number[] },
): Steps<UnionPoint[]> {
  const out: UnionPoint[] = [];
  const used = summaries.filter((s) => s.dates.length > 0).map(packSummary);
  if (used.length === 0 || from > to) return out;
  const { at, days } = unionDays(used, from, to);
  if (days.length === 0) return out;
  const size = days.length;
  const span = to - from + 1;
  const f: DayFigures = {
    stock: new Float64Array(size),
    priceSum: new Float64Array(size),
    areaSum: new Float64Array(size),
    stockBefore: new Float64Array(size),
    whole: new Uint8Array(size),
    new7: new Int32Array(span),
    new30: new Int32Array(span),
    gone7: new Int32Array(span),
    gone30: new Int32Array(span),
    back7: new Int32Array(size),
    back30: new Int32Array(size),
  };
  let minDay = used[0].dates[0];
  let longest = 0;
  // the medians' events there are at least (a table of them is taken when smaller: day-buckets.ts)
  let deltas = 0;
  let removals = 0;
  let back = 0;
  for (const s of used) {
    deltas += s.delta.length / 2;
    removals += s.removalK.length;
    back += s.back.length;
    minDay = Math.min(minDay, s.dates[0]);
    // a flat's first presence is never before its project's first list, but may be before a tail's
    // (pace-tail.ts): in its whole first presences, or when it comes back into the stock later
    for (let j = 0; j < s.delta.length; j += 2) if (s.delta[j] < minDay) minDay = s.delta[j];
    for (let r = 0; r < s.removalK.length; r++)
      longest = Math.max(longest, s.dates[s.removalK[r]] - s.removalFirst[r]);
  }
  const events = {
    firsts: dayEvents(from, span, minDay, Math.max(1, to - minDay + 1), deltas),
    dom: dayEvents(from, span, 0, longest + 1, 2 * removals),
    held: dayEvents(from, span, 0, longest + 1, back),
  };
  for (const s of used) {
    addProject(s, from, to, at, f, events);
    yield;
  }
  const { lnSums, pairSums } = yield* indexSums(used, from, to, at, days);
  // the medians' events sorted by day when kept as they came, each a step (millions of them over a long span)
  for (const bucket of [events.firsts, events.dom, events.held]) {
    bucket.sort();
    yield;
  }
  const firsts = new DayCounts(minDay, Math.max(1, to - minDay + 1));
  const onMarket = new DayCounts(0, longest + 1);
  let index = 100;
  let [new7, new30, gone7, gone30] = [0, 0, 0, 0];
  for (let i = 0; i < span; i++) {
    if (i % DAYS_A_STEP === DAYS_A_STEP - 1) yield;
    events.firsts.apply(i, firsts);
    events.dom.apply(i, onMarket);
    new7 += f.new7[i];
    new30 += f.new30[i];
    gone7 += f.gone7[i];
    gone30 += f.gone30[i];
    const j = at[i];
    if (j < 0) continue;
    const day = from + i;
    // the lots whose flat is back in the stock today are out of today's median only
    events.held.apply(i, onMarket, -1);
    const medianDaysOnMarket = onMarket.median();
    events.held.apply(i, onMarket, 1);
    if (j > 0 && pairSums[j]) index *= Math.exp(lnSums[j] / pairSums[j]);
    sums?.days.push(day);
    sums?.lnSums.push(lnSums[j]);
    sums?.pairSums.push(pairSums[j]);
    const stock = f.stock[j];
    const gone = gone30 - f.back30[j];
    const denominator = f.stockBefore[j] + new30;
    const medianFirst = firsts.median();
    out.push({
      date: fromDay(day),
      stock,
      new7,
      new30,
      gone7: gone7 - f.back7[j],
      gone30: gone,
      absorption: f.whole[j] && denominator ? round2((gone / denominator) * 100) : null,
      monthsOfSupply: gone ? round2(stock / gone) : null,
      medianDaysOnMarket,
      medianStockAge: medianFirst === null ? null : day - medianFirst,
      index: Math.round(index * 100) / 100,
      avgMeterPrice: f.areaSum[j] ? round2(f.priceSum[j] / f.areaSum[j]) : null,
    });
  }
  return out;
}
