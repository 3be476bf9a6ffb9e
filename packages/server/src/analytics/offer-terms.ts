import type { StatsStatus } from '@cena-metra/contract';
import { lowerBound } from '../lib/sorted.js';
import { area100, isReserved } from './cube.js';
import type { Segment } from './types.js';

/**
 * Avg ppm by payment term (DESIGN §11.4): for a snapshot day, over the active flats whose offer prices a
 * term, the sums of those prices and of the flats' areas — by status, as the stats' (§10.2): `ALL` every
 * active flat, `AVAILABLE` the reserved ones left out. Areas in hundredths of m², integers: sums do not
 * depend on order.
 */
export interface TermSums {
  count: number;
  sumPrice: number;
  sumArea100: number;
}
export type DayTerms = Record<StatsStatus, Record<string, TermSums>>;

/** The offer prices of a record's offer text, parsed once per distinct text. */
function termPrices(offer: string, parsed: Map<string, [string, number][]>): [string, number][] {
  let prices = parsed.get(offer);
  if (!prices) {
    const o = JSON.parse(offer) as { offerPrices?: Record<string, number> };
    prices = Object.entries(o.offerPrices ?? {});
    parsed.set(offer, prices);
  }
  return prices;
}

function add(into: Record<string, TermSums>, term: string, price: number, area: number): void {
  const sums = into[term];
  if (sums) {
    sums.count++;
    sums.sumPrice += price;
    sums.sumArea100 += area;
  } else into[term] = { count: 1, sumPrice: price, sumArea100: area };
}

/**
 * The term sums of each snapshot day in `days` (ascending) over the flats active that day (their segment
 * covers it); a day whose flats price no term has none (left out of the map).
 */
export function buildDayTerms(segments: Iterable<Segment[]>, days: number[]): Map<number, DayTerms> {
  const out = new Map<number, DayTerms>();
  if (days.length === 0) return out;
  const first = days[0];
  const last = days[days.length - 1];
  const parsed = new Map<string, [string, number][]>();
  for (const flatSegments of segments) {
    for (const seg of flatSegments) {
      const offer = seg.rec.offer;
      // canonical text: prices by term are written under this key only
      if (offer === null || !offer.includes('"offerPrices":')) continue;
      const end = seg.endDay ?? Number.POSITIVE_INFINITY;
      if (end < first || seg.startDay > last) continue;
      const prices = termPrices(offer, parsed);
      const area = area100(seg.rec.area);
      const available = !isReserved(seg.rec);
      for (let i = lowerBound(days, seg.startDay); i < days.length && days[i] <= end; i++) {
        let day = out.get(days[i]);
        if (!day) {
          day = { ALL: {}, AVAILABLE: {} };
          out.set(days[i], day);
        }
        for (const [term, price] of prices) {
          add(day.ALL, term, price, area);
          if (available) add(day.AVAILABLE, term, price, area);
        }
      }
    }
  }
  return out;
}

/** A day's sums as kept: terms sorted, so equal sums are equal texts (a rebuild gives the same bytes). */
export function encodeDayTerms(day: DayTerms): string {
  const sorted = (m: Record<string, TermSums>) =>
    Object.keys(m)
      .sort()
      .map((t) => [t, m[t].count, m[t].sumPrice, m[t].sumArea100]);
  return JSON.stringify({ ALL: sorted(day.ALL), AVAILABLE: sorted(day.AVAILABLE) });
}

/** A kept day's sums of one status: term → avg ppm (2 decimals) and the flats priced. */
export function dayTermPpm(
  text: string,
  status: StatsStatus,
): { term: string; avg: number; count: number }[] {
  const day = JSON.parse(text) as Record<StatsStatus, [string, number, number, number][]>;
  return day[status].map(([term, count, sumPrice, sumArea100]) => ({
    term,
    avg: Math.round((sumPrice / (sumArea100 / 100)) * 100) / 100,
    count,
  }));
}
