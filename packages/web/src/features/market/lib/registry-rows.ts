import {
  type MarketRow,
  PRICE_CLASS_OF_HOUSING,
  type PriceClass,
  type RegistryMarketProject,
} from '@cena-metra/contract';

/**
 * «Рынок»'s projects with the registry (DESIGN §12.3): each of our projects with its registry figures
 * («продано по реестру»), and every registry-only project as a row of its own — no price list, so no stock,
 * pace or price: those cells are empty, its flats and sold share are the registry's.
 */
export type MarketTableRow = MarketRow & {
  registry?: RegistryMarketProject;
  /** a project only the registry knows (its id is −objId of its first object) */
  registryOnly?: true;
};

export const isRegistryOnly = (r: MarketRow): boolean => (r as MarketTableRow).registryOnly === true;
export const registryOf = (r: MarketRow): RegistryMarketProject | undefined => (r as MarketTableRow).registry;

/** A registry-only project as a row of the table: its figures from lists are none (null, or 0 where a
 *  count is required and shown as «—» by the columns). */
export function registryOnlyRow(p: RegistryMarketProject, to: string): MarketTableRow {
  return {
    id: -p.objId,
    name: p.name,
    developerId: 0,
    developerName: p.developerName,
    projects: 0,
    date: to,
    stock: 0,
    new30: 0,
    gone30: 0,
    absorption: null,
    monthsOfSupply: null,
    medianDaysOnMarket: null,
    avgMeterPrice: null,
    priceClass: p.housingClass ? PRICE_CLASS_OF_HOUSING[p.housingClass] : null,
    classOrigin: p.housingClass ? 'registry' : null,
    indexChange: 0,
    place: {
      region: null,
      city: null,
      district: null,
      address: p.address,
      latitude: p.latitude,
      longitude: p.longitude,
      stations: [],
    },
    registry: p,
    registryOnly: true,
  };
}

/**
 * The projects' rows with the registry joined: ours by id; the registry-only ones added unless only those
 * with price lists are asked for (or a class is asked and theirs is another).
 */
export function withRegistry(
  rows: MarketRow[],
  registry: RegistryMarketProject[] | undefined,
  o: { listsOnly: boolean; to: string; priceClass: PriceClass | null },
): MarketTableRow[] {
  if (!registry) return rows;
  const byProject = new Map(registry.filter((p) => p.projectId !== null).map((p) => [p.projectId!, p]));
  const out: MarketTableRow[] = rows.map((r) => {
    const p = byProject.get(r.id);
    return p ? { ...r, registry: p } : r;
  });
  if (o.listsOnly) return out;
  for (const p of registry) {
    if (p.projectId !== null) continue;
    const row = registryOnlyRow(p, o.to);
    if (o.priceClass && row.priceClass !== o.priceClass) continue;
    out.push(row);
  }
  return out;
}
