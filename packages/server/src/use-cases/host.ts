import type { Db } from '../db/driver.js';
import type { Importer } from '../ingest/importer.js';
import { MarketReader } from '../read/market-reader.js';
import { ReadCache } from '../read/read-cache.js';
import { computeAlerts } from '../watch/alerts.js';
import { keepMarketSpansLocked } from './market-spans.js';

/** Who performs an act, as the audit log names them: a user, the schedule, or the command line. */
export { type Actor, cliActor, SCHEDULE } from '../db/queries/audit.js';

/**
 * What an act needs of the process that performs it (DESIGN §12.2): the database, the importer, and the
 * four things that follow a change of the data, which each kind of process does its own way — a server
 * drops its read caches and computes the watchlists' alerts after answering, a CLI command has no cache and
 * computes them before it exits. The acts in this folder take a host and never ask which one it is.
 */
export interface Host {
  db: Db;
  importer: Importer;
  /** the process's caches of the data forgotten (a server's data version); nothing in a CLI */
  invalidate(): void;
  /**
   * the watchlists' alerts of what came in, then the Telegram publisher told: a server starts it and goes
   * on (one computation at a time, watch/after-import.ts), a CLI waits for it
   */
  alertsThenNotify(): Promise<void>;
  /**
   * the market's kept spans brought up to date (use-cases/market-spans.ts): a server schedules a round and
   * goes on, a CLI runs it
   */
  keepMarket(): Promise<void>;
}

/** The alerts one at a time across processes (a CLI beside a server on PostgreSQL). */
export const computeAlertsLocked = (db: Db) => db.withLock('watch-alerts', () => computeAlerts(db));

/** A command's host: no cache of its own; alerts computed (under the lock) before the command ends. */
export function commandHost(db: Db, importer: Importer): Host {
  return {
    db,
    importer,
    invalidate: () => {},
    alertsThenNotify: async () => {
      await computeAlertsLocked(db);
    },
    keepMarket: async () => {
      await keepMarketSpansLocked(db, new MarketReader(new ReadCache()));
    },
  };
}
