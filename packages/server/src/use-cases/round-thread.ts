import { Worker } from 'node:worker_threads';
import type { KeepReport } from './market-spans.js';

/** What a round's thread is given: the server's database, the scopes' least size, its cache's bytes. */
export interface RoundJob {
  databaseUrl: string;
  min?: number;
  cacheBytes: number;
}

/** The worker's compiled script beside this one; none when running from the sources (tests of src/). */
function workerUrl(): URL | null {
  return import.meta.url.endsWith('.js') ? new URL('./round-worker.js', import.meta.url) : null;
}

/**
 * A round run on a thread of its own (PostgreSQL): at 5,000 projects a round reads and sweeps for tens of
 * seconds, a whole market's sweep holding a thread for over a second at a time — on the server's own thread
 * every request that came meanwhile waited for it. The thread opens its own connections (the round's lock
 * is the database's, so one round at a time across processes and threads still holds) and ends after the
 * round, its memory with it. Null where no compiled worker is there or the database is not a server's.
 */
export function roundOnThread(
  databaseUrl: string | undefined,
  options: { min?: number; cacheBytes?: number } = {},
): (() => Promise<KeepReport>) | null {
  const url = workerUrl();
  if (!url || !databaseUrl) return null;
  const job: RoundJob = {
    databaseUrl,
    min: options.min,
    cacheBytes: options.cacheBytes ?? 256 * 1024 * 1024,
  };
  return () =>
    new Promise<KeepReport>((resolve, reject) => {
      const worker = new Worker(url, { workerData: job });
      let answered = false;
      worker.once('message', (m: { report: KeepReport } | { error: string }) => {
        answered = true;
        if ('report' in m) resolve(m.report);
        else reject(new Error(m.error));
      });
      worker.once('error', (error) => {
        answered = true;
        reject(error);
      });
      worker.once('exit', (code) => {
        if (!answered) reject(new Error(`поток рядов рынка завершился с кодом ${code}`));
      });
    });
}
