import { resolve } from 'node:path';
import { type Config, loadConfig } from '../config.js';
import { type Db, openDb } from '../db/driver.js';
import { lockDataDir } from '../db/lock.js';
import { migrate } from '../db/migrate.js';

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
  if (!config.databaseUrl) unlock = lockDataDir(resolve(config.dataDir), role);
  let db: Db;
  try {
    db = await openDb({ databaseUrl: config.databaseUrl, dataDir: resolve(config.dataDir) });
    await migrate(db);
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
