import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { testDatabaseUrl } from '../src/config.js';
import { type Db, openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';

export type DbKind = 'pglite' | 'postgresql';

/**
 * A fresh, migrated database of the given kind: an in-memory PGlite, or a new database created on the
 * server of TEST_DATABASE_URL (dropped by `drop`).
 */
export async function freshDb(
  kind: DbKind,
  /** migrations up to this id only (a test of a later migration) */
  upTo?: number,
  /** the server to create it on (TEST_DATABASE_URL's by default) */
  server = testDatabaseUrl(),
): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> {
  if (kind === 'pglite') {
    const db = await openDb({ memory: true });
    await migrate(db, upTo);
    return { db, drop: () => db.close() };
  }
  const url = server;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: the PostgreSQL half of the suite needs it');
  const name = `cm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: target.toString() });
  await migrate(db, upTo);
  return {
    db,
    url: target.toString(),
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** Kinds the suite runs on: PGlite always; PostgreSQL when configured, and always in CI (missing = failure). */
export function databaseKinds(): DbKind[] {
  return testDatabaseUrl() || process.env.CI ? ['pglite', 'postgresql'] : ['pglite'];
}

/** Runs a describe block once per database kind with a fresh database in `ctx.db`. */
export function describeEachDb(name: string, body: (ctx: { db: Db; kind: DbKind; url?: string }) => void) {
  for (const kind of databaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      const ctx = { kind } as { db: Db; kind: DbKind; url?: string };
      let drop: () => Promise<void> = async () => {};
      beforeAll(async () => {
        const fresh = await freshDb(kind);
        ctx.db = fresh.db;
        ctx.url = fresh.url;
        drop = fresh.drop;
      });
      afterAll(async () => drop());
      body(ctx);
    });
  }
}
