import { type ProjectClass, priceBandOf, priceClassIn, projectClass } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import { projectClassRow } from '../db/queries/classes.js';
import { NotFoundError } from '../lib/errors.js';
import type { MarketReader } from './market-reader.js';

/**
 * A project's class and its origin (DESIGN §12.3) as «Рынок» gives it — by hand, else the registry's, else
 * its region's price bands at its average ppm of its last day with data (the market's own row of it) — with
 * what each origin says, for the dashboard's line.
 */
export async function projectClassInfo(db: Db, market: MarketReader, id: number): Promise<ProjectClass> {
  const p = await projectClassRow(db, id);
  if (!p) throw new NotFoundError(`проект ${id} не найден`);
  const place = { region: p.region, city: p.city };
  const ranking =
    p.last === null
      ? null
      : await market.market(db, { from: p.last, to: p.last, status: 'ALL', developerId: p.developer_id });
  const avgMeterPrice = ranking?.projects.find((r) => r.id === id)?.avgMeterPrice ?? null;
  const band = priceBandOf(place);
  return {
    projectId: id,
    ...projectClass(p.hand_class, p.registry_class, place, avgMeterPrice),
    hand: p.hand_class as ProjectClass['hand'],
    registry: p.registry_class as ProjectClass['registry'],
    avgMeterPrice,
    byPrice: priceClassIn(place, avgMeterPrice),
    band: { name: band.name, floors: band.floors },
  };
}
