import type { Config } from './config.js';
import type { Db } from './db/driver.js';
import { DataVersionCache } from './http/caches.js';
import { Importer } from './ingest/importer.js';
import { ChessReader } from './read/chess-reader.js';
import { FairReader } from './read/fair-reader.js';
import { HedonicReader } from './read/hedonic-reader.js';
import { MarketReader } from './read/market-reader.js';
import { PaceReader } from './read/pace-reader.js';
import { ReadCache } from './read/read-cache.js';
import { StatsReader } from './read/stats-reader.js';

/** The readers of the kept data, sharing the one bounded cache in front (DESIGN §11.1). */
export interface Readers {
  stats: StatsReader;
  pace: PaceReader;
  market: MarketReader;
  chess: ChessReader;
  hedonic: HedonicReader;
  fair: FairReader;
}

/** What a server holds for its life: made here, composed into the app by `buildApp` (DESIGN §12.2). */
export interface Services {
  importer: Importer;
  /** the one bounded in-memory layer: the readers' values and the serialized responses (CACHE_MB) */
  cache: ReadCache;
  readers: Readers;
  /** where reads that tolerate replica lag go (a ReadRouter over DATABASE_READ_URL); the primary without */
  reads: Db;
  /** the version of what the reads see, so an ETag never pairs a replica's older body with a newer version */
  dataVersion: DataVersionCache;
}

/** A server's services over its database (and replicas) by its configuration. */
export function createServices(deps: { db: Db; reads?: Db; config: Config }): Services {
  const { config } = deps;
  const carry = config.maxCarryDays;
  const cache = new ReadCache(config.cacheMb * 1024 * 1024);
  const market = new MarketReader(cache);
  const reads = deps.reads ?? deps.db;
  return {
    importer: new Importer(deps.db, config.removalGrace, carry),
    cache,
    readers: {
      stats: new StatsReader({ carry, cache }),
      pace: new PaceReader(carry, cache, market),
      market,
      chess: new ChessReader(carry, cache),
      hedonic: new HedonicReader(cache, carry),
      fair: new FairReader(cache, carry),
    },
    reads,
    dataVersion: new DataVersionCache(reads),
  };
}
