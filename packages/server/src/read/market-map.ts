import {
  type MarketMapRequest,
  type MarketMapResponse,
  PRICE_CLASS_OF_HOUSING,
  type RegistryMarketProject,
} from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import type { MarketReader, RankingQuery } from './market-reader.js';
import { registryMarket } from './registry-market.js';

/** A request as parsed: the ranking's selection, and whether registry-only projects are left out. */
type Query = RankingQuery & Pick<MarketMapRequest, 'listsOnly'>;

/**
 * «Рынок»'s map in columns (issue 46): the selection's projects as the ranking has them (its rows, their
 * places from the market's list) and — unless only those with lists are asked, or a station, which the
 * registry does not know — the registry's projects of the place and developer we have no list of (of the
 * class asked, by the registry's class). The table's rows (the web's `withRegistry`), a circle's figures each.
 */
export async function marketMap(db: Db, market: MarketReader, q: Query): Promise<MarketMapResponse> {
  const { listsOnly, ...selection } = q;
  const { chosen, projects } = await market.projectRows(db, selection);
  const registry =
    listsOnly || q.station
      ? []
      : (
          await registryMarket(db, market, {
            developerId: q.developerId,
            region: q.region,
            city: q.city,
            district: q.district,
          })
        ).projects.filter(
          (p) =>
            p.projectId === null &&
            (!q.priceClass ||
              (p.housingClass !== null && PRICE_CLASS_OF_HOUSING[p.housingClass] === q.priceClass)),
        );
  const out = new MapColumns();
  // the registry-only projects first: drawn under ours
  for (const p of registry)
    out.add(
      { id: -p.objId, developerId: 0, name: p.name, developer: p.developerName, registryOnly: true },
      p.latitude,
      p.longitude,
      { city: null, district: null, station: null },
      { size: p.flats ?? 0, avgMeterPrice: null, indexChange: null, absorption: null },
      registryFigures(p),
    );
  const places = new Map(chosen.map((p) => [p.id, p.place]));
  for (const r of projects) {
    const place = places.get(r.id)!;
    out.add(
      { id: r.id, developerId: r.developerId, name: r.name, developer: r.developerName, registryOnly: false },
      place.latitude,
      place.longitude,
      { city: place.city, district: place.district, station: place.stations[0]?.name ?? null },
      { size: r.stock, avgMeterPrice: r.avgMeterPrice, indexChange: r.indexChange, absorption: r.absorption },
      NO_REGISTRY,
    );
  }
  return out.answer(registry.length);
}

const NO_REGISTRY = { objects: null, soldShare: null, ready: null, address: null };
const registryFigures = (p: RegistryMarketProject) => ({
  objects: p.objects,
  soldShare: p.soldShare,
  ready: p.ready,
  address: p.address,
});

type Place = MarketMapResponse['places'][number];

/** The columns as they are filled, a point at a time; developers' and places' names each written once. */
class MapColumns {
  readonly columns: Omit<MarketMapResponse, 'developers' | 'places' | 'unplaced' | 'registryOnly'> = {
    id: [],
    developerId: [],
    name: [],
    developer: [],
    place: [],
    longitude: [],
    latitude: [],
    size: [],
    avgMeterPrice: [],
    indexChange: [],
    absorption: [],
    objects: [],
    soldShare: [],
    ready: [],
    address: [],
  };
  private readonly developers = new Map<string, number>();
  private readonly places = new Map<string, [number, Place]>();
  private readonly unplaced: MarketMapResponse['unplaced'] = [];

  add(
    who: { id: number; developerId: number; name: string; developer: string; registryOnly: boolean },
    latitude: number | null,
    longitude: number | null,
    place: Place,
    figures: {
      size: number;
      avgMeterPrice: number | null;
      indexChange: number | null;
      absorption: number | null;
    },
    registry: typeof NO_REGISTRY | ReturnType<typeof registryFigures>,
  ): void {
    if (latitude === null || longitude === null) {
      this.unplaced.push({
        id: who.id,
        name: who.name,
        developerId: who.developerId,
        registryOnly: who.registryOnly,
      });
      return;
    }
    const c = this.columns;
    c.id.push(who.id);
    c.developerId.push(who.developerId);
    c.name.push(who.name);
    let developer = this.developers.get(who.developer);
    if (developer === undefined) {
      developer = this.developers.size;
      this.developers.set(who.developer, developer);
    }
    c.developer.push(developer);
    const key = `${place.city}\u0000${place.district}\u0000${place.station}`;
    let at = this.places.get(key);
    if (!at) {
      at = [this.places.size, place];
      this.places.set(key, at);
    }
    c.place.push(at[0]);
    c.longitude.push(longitude);
    c.latitude.push(latitude);
    c.size.push(figures.size);
    c.avgMeterPrice.push(figures.avgMeterPrice);
    c.indexChange.push(figures.indexChange);
    c.absorption.push(figures.absorption);
    c.objects.push(registry.objects);
    c.soldShare.push(registry.soldShare);
    c.ready.push(registry.ready);
    c.address.push(registry.address);
  }

  answer(registryOnly: number): MarketMapResponse {
    return {
      ...this.columns,
      developers: [...this.developers.keys()],
      places: [...this.places.values()].map(([, p]) => p),
      unplaced: this.unplaced,
      registryOnly,
    };
  }
}
