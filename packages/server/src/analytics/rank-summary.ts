import type { PaceSummary } from './pace-summary.js';

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
