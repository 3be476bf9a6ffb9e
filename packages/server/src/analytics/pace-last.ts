import { lowerBound } from '../lib/sorted.js';
import { type DayFigures, DayParts } from './day-parts.js';
import { type UnionPoint, unionDaySums } from './pace-union.js';
import type { RankSummary } from './rank-summary.js';

export { type RankSummary, rankSummaryOf } from './rank-summary.js';

/** A union's last day with data in a period, as the ranking shows it: `UnionPoint` but the stock's age. */
export type LastPoint = Omit<UnionPoint, 'medianStockAge'>;

const round2 = (v: number) => Math.round(v * 100) / 100;

export { DayParts } from './day-parts.js';

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
  /**
   * the union's index day sums from a day on or before `from` (`unionDaySums`), made once for several
   * periods: the sums of each day past the period's first are the same whatever day they start from
   */
  sums?: DaySums,
  /**
   * the union's members and their data named (in order): its figures on a day are added up once per
   * ranking and taken as they are by another period ending on the same day (DayTable.unionFigures)
   */
  memo?: string,
): LastPoint | null {
  const used = summaries.length === 1 ? summaries : summaries.filter((s) => s.dates.length > 0);
  if (used.length === 1 && used[0].dates.length === 0) return null;
  if (used.length === 0 || from > to) return null;
  // no project has data before its first list: the days before the earliest are skipped at once
  let earliest = used[0].dates[0];
  for (const s of used) earliest = Math.min(earliest, s.dates[0]);
  const start = Math.max(from, earliest);
  if (start > to) return null;
  const chain =
    used.length === 1
      ? oneChain(used[0], start, to)
      : sums
        ? chainOf(sums, start, to)
        : chainOf(unionDaySums(used, start, to), start, to);
  if (!chain) return null;
  const { index, last } = chain;
  const day = last;
  // each project's figures on the day, read once per ranking, added up in the union's order
  const dayParts = parts ?? new DayParts(used.length);
  const table = dayParts.day(day);
  let f: DayFigures;
  if (used.length === 1) {
    const slot = dayParts.slot(used[0]);
    table.fill(used[0], slot);
    f = table.slotFigures(slot);
  } else f = table.unionFigures(used, dayParts, memo);
  const denominator = f.stockBefore + f.new30;
  return {
    date: table.date,
    stock: f.stock,
    new7: f.new7,
    new30: f.new30,
    gone7: f.gone7,
    gone30: f.gone30,
    // null unless the union has data on the day − 30 (the window is whole, §10.5)
    absorption: f.whole && denominator ? round2((f.gone30 / denominator) * 100) : null,
    monthsOfSupply: f.gone30 ? round2(f.stock / f.gone30) : null,
    medianDaysOnMarket: f.medianDaysOnMarket,
    index: Math.round(index * 100) / 100,
    avgMeterPrice: f.areaSum ? round2(f.priceSum / f.areaSum) : null,
  };
}

/** A union's index day sums (`unionDaySums`). */
export type DaySums = NonNullable<ReturnType<typeof unionDaySums>>;

/**
 * The index chained over a union's days with data in [start, to] (`sums` may begin earlier: a day's sums
 * past the first of the period do not depend on where they began), and the last of those days.
 */
function chainOf(sums: DaySums | null, start: number, to: number): { index: number; last: number } | null {
  if (!sums) return null;
  const { days, lnSums, pairSums } = sums;
  const first = lowerBound(days, start);
  const last = lowerBound(days, to + 1) - 1;
  if (first > last) return null;
  let index = 100;
  for (let j = first + 1; j <= last; j++) if (pairSums[j]) index *= Math.exp(lnSums[j] / pairSums[j]);
  return { index, last: days[last] };
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
  const factor = factorsOf(s);
  let index = 100;
  for (let k = lowerBound(s.dates, first + 1); k <= kLast; k++) index *= factor[k];
  return { index, last };
}

/** Each summary's chain factors, made on its first ranking and held as long as the summary is. */
const factors = new WeakMap<RankSummary, Float64Array>();

/**
 * A project's index factor of each snapshot, exp(lnSum / pairs), 1 without pairs (a product by 1 is
 * exact): the same numbers the sweep multiplies, so a ranking over another period of the same data
 * multiplies them again without a `Math.exp` each (the whole country's 90 days were ~450,000 of them).
 */
function factorsOf(s: RankSummary): Float64Array {
  let f = factors.get(s);
  if (!f) {
    f = new Float64Array(s.dates.length);
    for (let k = 0; k < f.length; k++) f[k] = s.pairs[k] ? Math.exp(s.lnSum[k] / s.pairs[k]) : 1;
    factors.set(s, f);
  }
  return f;
}
