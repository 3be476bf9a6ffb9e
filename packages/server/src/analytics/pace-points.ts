// The points of sales pace and of a union's pace (analytics/pace-union.ts, union-sweep.ts).

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
