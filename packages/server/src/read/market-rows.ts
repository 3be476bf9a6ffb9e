import {
  type ClassOrigin,
  type MarketRow,
  PRICE_CLASSES,
  type PriceClass,
  projectClass,
} from '@cena-metra/contract';
import type { LastPoint } from '../analytics/pace-last.js';
import type { ProjectRow } from './market-projects.js';

/** A row's class and where it comes from (DESIGN §12.3). */
export interface RowClass {
  priceClass: PriceClass | null;
  classOrigin: ClassOrigin | null;
}

/** A project's class: by hand, else the registry's, else its region's price bands at its average ppm. */
export const projectClassOf =
  (p: Pick<ProjectRow, 'hand_class' | 'registry_class' | 'place'>) =>
  (avgMeterPrice: number | null): RowClass =>
    projectClass(p.hand_class, p.registry_class, p.place, avgMeterPrice);

/**
 * A union's class (a developer, a place, the selection): the class most of its members' stock has (ties: the
 * higher class); null when no member has one. Its origin is its members', not its own: none.
 */
export function unionClassOf(members: readonly (MarketRow | undefined)[]): () => RowClass {
  return () => {
    const stock = new Map<PriceClass, number>();
    for (const m of members)
      if (m?.priceClass) stock.set(m.priceClass, (stock.get(m.priceClass) ?? 0) + m.stock);
    let best: PriceClass | null = null;
    for (const c of PRICE_CLASSES)
      if (stock.has(c) && (best === null || stock.get(c)! >= stock.get(best)!)) best = c;
    return { priceClass: best, classOrigin: null };
  };
}

/** A ranking row from a union's last day with data: its figures and the index's change; null without. */
export function rowOf(
  last: LastPoint | null,
  who: Pick<MarketRow, 'id' | 'name' | 'developerId' | 'developerName' | 'projects'>,
  classOf: (avgMeterPrice: number | null) => RowClass,
): MarketRow | null {
  if (!last) return null;
  const cls = classOf(last.avgMeterPrice);
  // every field named (no spread): thousands of rows a request, one object shape
  return {
    id: who.id,
    name: who.name,
    developerId: who.developerId,
    developerName: who.developerName,
    projects: who.projects,
    date: last.date,
    stock: last.stock,
    new30: last.new30,
    gone30: last.gone30,
    absorption: last.absorption,
    monthsOfSupply: last.monthsOfSupply,
    medianDaysOnMarket: last.medianDaysOnMarket,
    avgMeterPrice: last.avgMeterPrice,
    priceClass: cls.priceClass,
    classOrigin: cls.classOrigin,
    indexChange: Math.round((last.index - 100) * 100) / 100,
  };
}
