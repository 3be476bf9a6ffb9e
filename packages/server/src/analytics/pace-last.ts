import { fromDay } from '../lib/days.js';
import { lowerBound } from './events.js';
import { type PaceSummary, WINDOW } from './pace-summary.js';
import type { UnionPoint } from './pace-union.js';

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

/** The median of integers (the mean of the two middle ones for an even count), null for none. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const half = values.length >> 1;
  return values.length % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

/**
 * The last point of `unionPace(summaries, from, to)` (pace-union.ts) but its median stock age, found
 * without sweeping every day's windows and medians: the index is chained over the period's days with data
 * exactly as the sweep chains it (the same sums in the same order), and the windows, the days on market and
 * the figures are read on the last day alone. Null when no day of the period has data. The ranking of the
 * market (every project, developer and the whole) costs the period's days for the index and the window's
 * removals for the rest, not a sweep per row.
 */
export function unionLast(summaries: RankSummary[], from: number, to: number): LastPoint | null {
  const used = summaries.filter((s) => s.dates.length > 0);
  if (used.length === 0 || from > to) return null;
  // each project's snapshot on the day (−1: none yet), and on the previous day with data (−1: no data)
  const ks = new Int32Array(used.length).fill(-1);
  let before: Int32Array | null = null;
  let now: Int32Array = new Int32Array(used.length);
  let index = 100;
  let last = -1;
  // no project has data before its first list: the days before the earliest are skipped at once
  let earliest = used[0].dates[0];
  for (const s of used) earliest = Math.min(earliest, s.dates[0]);
  const start = Math.max(from, earliest);
  for (let day = start; day <= to; day++) {
    let any = false;
    let lnSum = 0;
    let pairs = 0;
    for (let i = 0; i < used.length; i++) {
      const s = used[i];
      while (ks[i] + 1 < s.dates.length && s.dates[ks[i] + 1] <= day) ks[i]++;
      const k = ks[i];
      if (k < 0 || day > s.ends[k]) {
        now[i] = -1;
        continue;
      }
      now[i] = k;
      any = true;
      if (before && before[i] >= 0) {
        if (before[i] !== k) {
          lnSum += s.lnSum[k];
          pairs += s.pairs[k];
        } else pairs += s.stock[k];
      }
    }
    if (!any) continue;
    if (before && pairs) index *= Math.exp(lnSum / pairs);
    if (before) {
      const swap: Int32Array = before;
      before = now;
      now = swap;
    } else {
      before = now;
      now = new Int32Array(used.length);
    }
    last = day;
  }
  if (last < 0) return null;
  const day = last;
  let stock = 0;
  let priceSum = 0;
  let areaSum = 0;
  let stockBefore = 0;
  let new7 = 0;
  let new30 = 0;
  let gone7 = 0;
  let gone30 = 0;
  const onMarket: number[] = [];
  for (const s of used) {
    const k = lowerBound(s.dates, day + 1) - 1;
    const has = k >= 0 && day <= s.ends[k];
    if (has) {
      stock += s.stock[k];
      priceSum += s.priceSum[k];
      areaSum += s.areaSum[k];
    }
    const kBefore = lowerBound(s.dates, day - 30 + 1) - 1;
    if (kBefore >= 0 && day - 30 <= s.ends[kBefore]) stockBefore += s.stock[kBefore];
    for (let j = lowerBound(s.dates, day - 30 + 1); j <= k; j++) {
      new30 += s.fresh[j];
      if (s.dates[j] >= day - 7 + 1) new7 += s.fresh[j];
    }
    // the removals of the 30 days and of the last 7, less those whose flat is in the stock again today
    const enter = removalsUpTo(s, day);
    const exit30 = Math.min(enter, removalsUpTo(s, day - WINDOW));
    const exit7 = Math.max(exit30, Math.min(enter, removalsUpTo(s, day - 7)));
    for (let r = exit30; r < enter; r++) {
      if (has && isBack(s, r, s.dates[k])) continue;
      gone30++;
      if (r >= exit7) gone7++;
      onMarket.push(s.dates[s.removalK[r]] - s.removalFirst[r]);
    }
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
    medianDaysOnMarket: median(onMarket),
    index: Math.round(index * 100) / 100,
    avgMeterPrice: areaSum ? round2(priceSum / areaSum) : null,
  };
}
