import { DISCOUNT_PERIODS, type DiscountBasis, type DiscountPeriod } from '@cena-metra/contract';
import { area100 } from './cube.js';
import { crossedOutPrice, discountPercent, type FlatOnDay, round2 } from './stats.js';

export { crossedOutPrice } from './stats.js';

/** The reference price of a flat on A for a §4.3 period: its highest price while active in the window. */
export function refPrice(flat: FlatOnDay, period: DiscountPeriod): number {
  switch (period) {
    case 'DAY':
      return flat.refDay;
    case 'WEEK':
      return flat.ref7Days;
    case 'MONTH':
      return flat.ref1Month;
    case 'YEAR':
      return flat.ref1Year;
  }
}

export interface FlatDiscount {
  flat: FlatOnDay;
  refPrice: number;
  /** unrounded percent; responses round to 2 decimals */
  discount: number;
}

/**
 * Flats active on A with a discount > 0, largest first (ties: flat id ascending): by §4.2's rule from the
 * price history, or (`developer`, §11.4) from the crossed-out price the developer shows.
 */
export function discountedFlats(
  flats: FlatOnDay[],
  period: DiscountPeriod,
  basis: DiscountBasis = 'history',
): FlatDiscount[] {
  const out: FlatDiscount[] = [];
  for (const flat of flats) {
    const ref = basis === 'history' ? refPrice(flat, period) : crossedOutPrice(flat.rec);
    const discount = discountPercent(ref, flat.rec.price);
    if (discount > 0) out.push({ flat, refPrice: ref, discount });
  }
  return out.sort((a, b) => b.discount - a.discount || a.flat.flatId - b.flat.flatId);
}

export interface ProjectDiscountSummary {
  activeFlats: number;
  discountedFlats: number;
  maxDiscountPercent: number;
  /** average over the discounted flats; 0 when none */
  avgDiscountPercent: number;
  /** area-weighted as §4.2; null when no flat is active */
  avgMeterPrice: number | null;
}

/** §4.3 per project: active and discounted flats on A, max and mean discount, average price per m². */
export function projectDiscountSummary(
  flats: FlatOnDay[],
  period: DiscountPeriod,
  basis: DiscountBasis = 'history',
): ProjectDiscountSummary {
  const discounted = discountedFlats(flats, period, basis);
  let sumPrice = 0;
  let sumArea100 = 0;
  for (const f of flats) {
    sumPrice += f.rec.price;
    sumArea100 += area100(f.rec.area);
  }
  const sumDiscount = discounted.reduce((s, d) => s + d.discount, 0);
  return {
    activeFlats: flats.length,
    discountedFlats: discounted.length,
    maxDiscountPercent: round2(discounted[0]?.discount ?? 0),
    avgDiscountPercent: discounted.length ? round2(sumDiscount / discounted.length) : 0,
    avgMeterPrice: sumArea100 ? round2(sumPrice / (sumArea100 / 100)) : null,
  };
}

/** A project's §4.3 discounts on a day for every period and basis: what the market's table reads of it. */
export type ProjectDiscounts = Record<DiscountPeriod, Record<DiscountBasis, ProjectDiscountSummary>>;

export function projectDiscountsAll(flats: FlatOnDay[]): ProjectDiscounts {
  const out = {} as ProjectDiscounts;
  for (const period of DISCOUNT_PERIODS)
    out[period] = {
      history: projectDiscountSummary(flats, period, 'history'),
      developer: projectDiscountSummary(flats, period, 'developer'),
    };
  return out;
}
