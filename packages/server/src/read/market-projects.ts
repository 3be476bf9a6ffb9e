import type { Place } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import { listedProjectRows, listedProjectsMark } from '../db/queries/catalog.js';
import { toDay } from '../lib/days.js';
import type { ReadCache } from './read-cache.js';

/** A project as the market reads it. */
export interface ProjectRow {
  id: number;
  name: string;
  data_version: number;
  developer_id: number;
  developer_name: string;
  place: Place;
  /** §12.3: a class set by hand, the registry's class of the project (PriceClass / a registry class name) */
  hand_class: string | null;
  registry_class: string | null;
  /** the average ppm of its latest list: its class by price where no other origin names one */
  last_ppm: number | null;
}

/** A listed project: the days of its first and last lists beside. */
interface ListedProject extends ProjectRow {
  first: number;
  last: number;
}

/** the shared cache's key of the market's list of projects */
const LISTED = 'market:projects';
/** the list's readings under way, by cache and version */
const reading = new WeakMap<ReadCache, Map<string, Promise<ListedProject[]>>>();

/**
 * The list's own share of the read cache (ReadCache.part): «Рынок», the hedonic index and the fair price read
 * it on every request, and 200 projects' pages opened before them pushed it out of the shared LRU (~3 MB at
 * 5,000 projects; room for eight times as many).
 */
export const LIST_CACHE_BYTES = 32 * 1024 * 1024;

/** The market's projects with data, as its rankings, paces and comparisons select them. */
export class MarketProjects {
  private readonly shared: ReadCache;

  constructor(cache: ReadCache) {
    this.shared = cache.part('market-list', LIST_CACHE_BYTES);
  }

  /**
   * The projects with data (of a developer, of ids, reaching a period), in id order, from the market's list
   * of projects with data: read once per version of the projects' data and places (a one-row query tells
   * it) and held. Read on every ranking, its 5,000 rows were a third of a computed ranking's time: the
   * round trip, the parsing, and the garbage that outlived the young generation.
   */
  async select(
    db: Db,
    where: { developerId?: number; ids?: number[]; from?: string; to?: string },
  ): Promise<ProjectRow[]> {
    const list = await this.listed(db);
    const ids = where.ids && new Set(where.ids);
    const from = where.from === undefined ? null : toDay(where.from);
    const to = where.to === undefined ? null : toDay(where.to);
    return list.filter(
      (p) =>
        (where.developerId === undefined || p.developer_id === where.developerId) &&
        (!ids || ids.has(p.id)) &&
        (from === null || p.last >= from) &&
        (to === null || p.first <= to),
    );
  }

  /** The last day of the market's lists (null: no project has data). */
  async lastDay(db: Db): Promise<number | null> {
    let last: number | null = null;
    for (const p of await this.listed(db)) if (last === null || p.last > last) last = p.last;
    return last;
  }

  private async listed(db: Db): Promise<ListedProject[]> {
    const version = await listedProjectsMark(db);
    const held = this.shared.get<ListedProject[]>(LISTED, version);
    if (held) return held;
    // «Рынок» asks for its ranking, map, pace and index at once, each reader with a list of its own over the
    // one cache: after a change they share one reading of the version, not one each
    let reads = reading.get(this.shared);
    if (!reads) {
      reads = new Map();
      reading.set(this.shared, reads);
    }
    const pending = reads.get(version);
    if (pending) return pending;
    const read = this.read(db, version).finally(() => reads.delete(version));
    reads.set(version, read);
    return read;
  }

  private async read(db: Db, version: string): Promise<ListedProject[]> {
    const rows = await listedProjectRows(db);
    const list = rows.map(
      (r): ListedProject => ({
        id: r.id,
        name: r.name,
        data_version: r.data_version,
        developer_id: r.developer_id,
        developer_name: r.developer_name,
        hand_class: r.hand_class,
        registry_class: r.registry_class,
        last_ppm: r.last_ppm === null ? null : Number(r.last_ppm),
        first: toDay(r.first),
        last: toDay(r.last),
        place: {
          region: r.region,
          city: r.city,
          district: r.district,
          address: r.address,
          latitude: r.latitude,
          longitude: r.longitude,
          // jsonb: parsed by the driver (text on a driver that leaves it)
          stations: (typeof r.stations === 'string'
            ? JSON.parse(r.stations)
            : r.stations) as Place['stations'],
        },
      }),
    );
    this.shared.set(LISTED, version, list, (l) => 100 + l.length * 600);
    return list;
  }
}
