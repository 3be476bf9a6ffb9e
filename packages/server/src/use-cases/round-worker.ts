import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../db/driver.js';
import { MarketReader } from '../read/market-reader.js';
import { ReadCache } from '../read/read-cache.js';
import { keepMarketSpansLocked } from './market-spans.js';
import type { RoundJob } from './round-thread.js';

// A round of the market's kept spans on a thread of its own (use-cases/round-thread.ts): its own connections
// to the server's PostgreSQL and its own cache, its report (or why it failed) posted back, then it ends.
const job = workerData as RoundJob;
const db = await openDb({ databaseUrl: job.databaseUrl });
try {
  const report = await keepMarketSpansLocked(db, new MarketReader(new ReadCache(job.cacheBytes)), job.min);
  parentPort!.postMessage({ report });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message ?? String(error) });
} finally {
  await db.close();
}
