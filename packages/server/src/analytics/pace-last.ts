import { fromDay } from '../lib/days.js';
import { lowerBound } from './events.js';
import { type PaceSummary, WINDOW } from './pace-summary.js';
import { type UnionPoint, unionDaySums } from './pace-union.js';

/**
 * What the market's ranking reads of a project's pace summary (pace-summary.ts): everything but the stock's
 * first presences (the median stock age, which the ranking does not show), as flat numeric arrays — the
 * form kept beside the summary (db/kept.ts) and held in memory for every project of the market.
 */
export interface RankSummary {
  dates: ArrayLike<number>;
  ends: ArrayLike<number>;
  stock: ArrayLike<number>;
  priceSum: ArrayLike<number>;
  areaSum: ArrayLike<number>;
  fresh: ArrayLike<number>;
  lnSum: ArrayLike<number>;
  pairs: ArrayLike<number>;
  /** the REMOVED events in snapshot order: the snapshot, the flat's first presence */
  removalK: ArrayLike<number>;
  removalFirst: ArrayLike<number>;
  /** removal i's days back in the stock are back[backStart[i] … backStart[i + 1]) */
  backStart: ArrayLike<number>;
  back: ArrayLike<number>;
}

export function rankSummaryOf(s: PaceSummary): RankSummary {
  const backStart = [0];
  const back: number[] = [];
  for (const r of s.removals) {
    back.push(...r.back);
    backStart.push(back.length);
  }
  return {
    dates: s.dates,
    ends: s.ends,
    stock: s.stock,
    priceSum: s.priceSum,
    areaSum: s.areaSum,
    fresh: s.fresh,
    lnSum: s.lnSum,
    pairs: s.pairs,
    removalK: s.removals.map((r) => r.k),
    removalFirst: s.removals.map((r) => r.first),
    backStart,
    back,
  };
}

/** A union's last day with data in a period, as the ranking shows it: `UnionPoint` but the stock's age. */
export type LastPoint = Omit<UnionPoint, 'medianStockAge'>;

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The count of removals whose day is ≤ `day` (removals are in snapshot order). */
function removalsUpTo(s: RankSummary, day: number): number {
  let lo = 0;
  let hi = s.removalK.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.dates[s.removalK[mid]] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isBack(s: RankSummary, r: number, day: number): boolean {
  for (let i = s.backStart[r]; i < s.backStart[r + 1]; i++) if (s.back[i] === day) return true;
  return false;
}

/**
 * The median of the integers of several lists (days on market: 0 or more), as `median` of them all: a few
 * are sorted, many (the whole market's month: ~150,000) counted by value instead.
 */
export function medianOfLists(lists: number[][]): number | null {
  let count = 0;
  let max = 0;
  for (const list of lists) {
    count += list.length;
    for (const v of list) if (v > max) max = v;
  }
  // a project's own list is sorted in place (the order of a day's removals means nothing)
  if (lists.length === 1) return median(lists[0]);
  if (count <= 256) {
    const all: number[] = [];
    for (const list of lists) for (const v of list) all.push(v);
    return median(all);
  }
  let min = 0;
  for (const list of lists) for (const v of list) if (v < min) min = v;
  const counts = new Int32Array(max - min + 1);
  for (const list of lists) for (const v of list) counts[v - min]++;
  // the values of rank half and half + 1 (1-based), as a sorted list would have them
  const half = count >> 1;
  const at = (rank: number) => {
    let seen = 0;
    for (let i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) return i + min;
    }
    return max;
  };
  return count % 2 ? at(half + 1) : (at(half) + at(half + 1)) / 2;
}

/** The median of integers (the mean of the two middle ones for an even count), null for none. */
function median(list: number[]): number | null {
  if (list.length === 0) return null;
  // a long list sorts natively as a typed array; a short one (a project's month) in place by insertion,
  // no buffer made and no comparator called
  const values = list.length > 256 ? Int32Array.from(list).sort() : insertionSorted(list);
  const half = values.length >> 1;
  return values.length % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

function insertionSorted(list: number[]): number[] {
  for (let i = 1; i < list.length; i++) {
    const v = list[i];
    let j = i - 1;
    for (; j >= 0 && list[j] > v; j--) list[j + 1] = list[j];
    list[j + 1] = v;
  }
  return list;
}

/** One project's part of a union's day: its figures there, which the union adds up project by project. */
interface DayPart {
  stock: number;
  priceSum: number;
  areaSum: number;
  stockBefore: number;
  new7: number;
  new30: number;
  gone7: number;
  gone30: number;
  /** the days on market of the removals of the 30-day window (less those back in the stock) */
  onMarket: number[];
}

/** A project's figures on a day as the sweep reads them (0 for what it has no data for). */
function dayPart(s: RankSummary, day: number): DayPart {
  const p: DayPart = {
    stock: 0,
    priceSum: 0,
    areaSum: 0,
    stockBefore: 0,
    new7: 0,
    new30: 0,
    gone7: 0,
    gone30: 0,
    onMarket: [],
  };
  const k = lowerBound(s.dates, day + 1) - 1;
  const has = k >= 0 && day <= s.ends[k];
  if (has) {
    p.stock = s.stock[k];
    p.priceSum = s.priceSum[k];
    p.areaSum = s.areaSum[k];
  }
  const kBefore = lowerBound(s.dates, day - 30 + 1) - 1;
  if (kBefore >= 0 && day - 30 <= s.ends[kBefore]) p.stockBefore = s.stock[kBefore];
  for (let j = lowerBound(s.dates, day - 30 + 1); j <= k; j++) {
    p.new30 += s.fresh[j];
    if (s.dates[j] >= day - 7 + 1) p.new7 += s.fresh[j];
  }
  // the removals of the 30 days and of the last 7, less those whose flat is in the stock again today
  const enter = removalsUpTo(s, day);
  const exit30 = Math.min(enter, removalsUpTo(s, day - WINDOW));
  const exit7 = Math.max(exit30, Math.min(enter, removalsUpTo(s, day - 7)));
  for (let r = exit30; r < enter; r++) {
    if (has && isBack(s, r, s.dates[k])) continue;
    p.gone30++;
    if (r >= exit7) p.gone7++;
    p.onMarket.push(s.dates[s.removalK[r]] - s.removalFirst[r]);
  }
  return p;
}

/**
 * The projects' days one ranking has read: its rows are each project alone, each developer and the whole,
 * mostly on the same last day, so a project's figures there are read once and added up by every union.
 */
export class DayParts {
  private readonly byDay = new Map<number, Map<RankSummary, DayPart>>();

  of(s: RankSummary, day: number): DayPart {
    let parts = this.byDay.get(day);
    if (!parts) {
      parts = new Map();
      this.byDay.set(day, parts);
    }
    let p = parts.get(s);
    if (!p) {
      p = dayPart(s, day);
      parts.set(s, p);
    }
    return p;
  }
}

/**
 * The last point of `unionPace(summaries, from, to)` (pace-union.ts) but its median stock age, found
 * without sweeping every day's windows and medians: the index is chained over the period's days with data
 * exactly as the sweep chains it (the same sums in the same order), and the windows, the days on market and
 * the figures are read on the last day alone. Null when no day of the period has data. The ranking of the
 * market (every project, developer and the whole) costs the period's days for the index and the window's
 * removals for the rest, not a sweep per row.
 */
export function unionLast(
  summaries: RankSummary[],
  from: number,
  to: number,
  /** the figures of projects' days already read by this ranking (its projects' rows, then the unions) */
  parts?: DayParts,
): LastPoint | null {
  const used = summaries.length === 1 ? summaries : summaries.filter((s) => s.dates.length > 0);
  if (used.length === 1 && used[0].dates.length === 0) return null;
  if (used.length === 0 || from > to) return null;
  // no project has data before its first list: the days before the earliest are skipped at once
  let earliest = used[0].dates[0];
  for (const s of used) earliest = Math.min(earliest, s.dates[0]);
  const start = Math.max(from, earliest);
  if (start > to) return null;
  const chain = used.length === 1 ? oneChain(used[0], start, to) : unionChain(used, start, to);
  if (!chain) return null;
  const { index, last } = chain;
  const day = last;
  let stock = 0;
  let priceSum = 0;
  let areaSum = 0;
  let stockBefore = 0;
  let new7 = 0;
  let new30 = 0;
  let gone7 = 0;
  let gone30 = 0;
  const onMarket: number[][] = [];
  for (const s of used) {
    const p = parts ? parts.of(s, day) : dayPart(s, day);
    stock += p.stock;
    priceSum += p.priceSum;
    areaSum += p.areaSum;
    stockBefore += p.stockBefore;
    new7 += p.new7;
    new30 += p.new30;
    gone7 += p.gone7;
    gone30 += p.gone30;
    if (p.onMarket.length) onMarket.push(p.onMarket);
  }
  const denominator = stockBefore + new30;
  return {
    date: fromDay(day),
    stock,
    new7,
    new30,
    gone7,
    gone30,
    absorption: denominator ? round2((gone30 / denominator) * 100) : null,
    monthsOfSupply: gone30 ? round2(stock / gone30) : null,
    medianDaysOnMarket: medianOfLists(onMarket),
    index: Math.round(index * 100) / 100,
    avgMeterPrice: areaSum ? round2(priceSum / areaSum) : null,
  };
}

/** The index chained over a union's day sums (`unionDaySums`), and the last day with data. */
function unionChain(used: RankSummary[], start: number, to: number): { index: number; last: number } | null {
  const sums = unionDaySums(used, start, to);
  if (!sums) return null;
  const { days, lnSums, pairSums } = sums;
  let index = 100;
  for (let j = 1; j < days.length; j++) if (pairSums[j]) index *= Math.exp(lnSums[j] / pairSums[j]);
  return { index, last: days[days.length - 1] };
}

/**
 * The same for one project, snapshot by snapshot: its days with data are the union's, so a day in the
 * same snapshot as the day before multiplies the index by exp(0) = 1 (nothing), and a snapshot's first day
 * by exp(lnSum / pairs) — the sweep's factors in the sweep's order, without a pass over the days.
 */
function oneChain(s: RankSummary, start: number, to: number): { index: number; last: number } | null {
  const n = s.dates.length;
  const k0 = lowerBound(s.dates, start + 1) - 1;
  // the first day with data from `start`: start itself inside a snapshot's days, else the next snapshot's
  const first =
    k0 >= 0 && start <= s.ends[k0] ? start : k0 + 1 < n ? s.dates[k0 + 1] : Number.POSITIVE_INFINITY;
  const kLast = lowerBound(s.dates, to + 1) - 1;
  if (kLast < 0) return null;
  const last = Math.min(to, s.ends[kLast]);
  if (first > last) return null;
  let index = 100;
  for (let k = lowerBound(s.dates, first + 1); k <= kLast; k++)
    if (s.pairs[k]) index *= Math.exp(s.lnSum[k] / s.pairs[k]);
  return { index, last };
}
