import { statfsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, loadConfig } from '../config.js';
import { type Db, openDb, PGLITE_RESERVE_BYTES } from '../db/driver.js';
import { lockDataDir } from '../db/lock.js';
import { migrate } from '../db/migrate.js';
import { CliError } from '../lib/errors.js';
import { limitHeapGrowth } from '../lib/heap.js';
import { rebuildIfMarked } from '../use-cases/rebuild.js';

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

export interface Context {
  config: Config;
  db: Db;
  close(): Promise<void>;
}

/** Opens the configured database (PostgreSQL by URL, else PGlite in the data dir, locked) and migrates it. */
export async function openContext(
  options: GlobalOptions,
  role: string,
  overrides: Partial<Config> = {},
): Promise<Context> {
  const config = loadConfig({ ...overrides, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  let unlock = () => {};
  if (!config.databaseUrl) {
    unlock = lockDataDir(resolve(config.dataDir), role);
    // PGlite aborts without a word when it cannot write at start: say so first
    const { bavail, bsize } = statfsSync(resolve(config.dataDir));
    const freeMb = (bavail * bsize) / 1024 / 1024;
    const needMb = PGLITE_RESERVE_BYTES / 1024 / 1024;
    if (freeMb < needMb) {
      unlock();
      throw new CliError(
        `на диске нет места: в папке данных ${resolve(config.dataDir)} свободно ${Math.floor(freeMb)} МБ, нужно не меньше ${needMb} МБ`,
        1,
      );
    }
  }
  let db: Db;
  try {
    db = await openDb({ databaseUrl: config.databaseUrl, dataDir: resolve(config.dataDir) });
    // the embedded database's process keeps its heap small, but for the demo's batch work (lib/heap.ts)
    if (db.kind === 'pglite' && role !== 'demo') limitHeapGrowth();
    await migrate(db);
    await rebuildIfMarked(db, config.removalGrace, config.maxCarryDays, (line) =>
      process.stderr.write(`${line}\n`),
    );
  } catch (error) {
    unlock();
    throw error;
  }
  let closed = false;
  return {
    config,
    db,
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
      unlock();
    },
  };
}
