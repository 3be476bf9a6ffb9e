import fc from 'fast-check';
import type { Db } from '../src/db/driver.js';
import { Importer } from '../src/ingest/importer.js';
import type { Snapshot } from '../src/ingest/snapshot.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyImport } from '../src/use-cases/imports.js';
import { keepMarketSpansLocked } from '../src/use-cases/market-spans.js';
import { PROJECT_TABLES, toSnapshot } from './kept-data.js';
import { projectArb } from './random-market.js';

// The markets of the kept spans' and the keeper's tests (market-spans.test.ts, market-keeper.test.ts).

/** A random project's list with its developer and place: two developers, two regions, a city in each. */
export const placed = (p: number, s: Snapshot): Snapshot => ({
  ...s,
  developer: `Застройщик ${p % 2}`,
  place: {
    region: p % 3 === 0 ? 'Москва' : 'Свердловская область',
    city: p % 3 === 0 ? 'Москва' : 'ЕКАТЕРИНБУРГ',
  },
});

/** Every scope and filter, whatever its size (the rounds of these tests keep every developer and place). */
export const keepAll = (db: Db) => keepMarketSpansLocked(db, new MarketReader(new ReadCache()), 1);

/** The market's list of projects as it is read (db/queries/catalog.ts `listedProjectRows`). */
export const LIST_READ = /join developer d on d\.id = p\.developer_id/;
export const RANK_READ = /from rank_month r/;

/**
 * `count` projects of one generated history (the seed's), each in a place of its own, imported through the
 * command's door with no round after it (the test makes its rounds): the host and each project's lists.
 */
export async function importedMarket(db: Db, seed: number, count: number) {
  const importer = new Importer(db, 2, 31);
  const [project] = fc.sample(projectArb, { numRuns: 1, seed });
  const host = { ...commandHost(db, importer), keepMarket: async () => {} };
  const lists = (p: number) => project.map((s) => placed(p, toSnapshot(p, s)));
  for (let p = 0; p < count; p++) await applyImport(host, { snapshots: lists(p) }, cliActor());
  return { host, lists };
}

/** `db` with a count of the statements that match `pattern`. */
export function counting(target: Db, pattern: RegExp) {
  let n = 0;
  const db = new Proxy(target, {
    get(t, prop, receiver) {
      if (prop === 'query' || prop === 'binaryRows' || prop === 'binaryEach')
        return (sql: string, ...rest: unknown[]) => {
          if (pattern.test(sql)) n++;
          return (t[prop] as (sql: string, ...rest: unknown[]) => unknown)(sql, ...rest);
        };
      const value = Reflect.get(t, prop, receiver);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
  return { db, reads: () => n, reset: () => (n = 0) };
}

export const clear = (db: Db) => db.query(`truncate market_span, ${PROJECT_TABLES} restart identity cascade`);
