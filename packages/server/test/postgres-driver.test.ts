import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { freshDb } from './databases.js';

// The PostgreSQL driver's own behaviour: what a pool of clients keeps, and a connection lost mid-query.
describe('PostgreSQL driver', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    if (!testDatabaseUrl()) throw new Error('TEST_DATABASE_URL is not set');
    ({ db, drop, url } = (await freshDb('postgresql')) as { db: Db; drop: () => Promise<void>; url: string });
  });
  afterAll(() => drop());

  it('keeps no query’s rows once answered (a new client of the pool used to hold its first result)', async () => {
    const marker = `held-${Math.random().toString(36).slice(2)}`;
    // several at once, so the pool makes several clients, each answering its first query here
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        db.query<{ s: string }>(`select $1 || '-' || $2 || repeat('x', 5000) as s`, [marker, i]),
      ),
    );
    expect(answers.map((rows) => rows[0].s.slice(0, marker.length))).toEqual(Array(4).fill(marker));
    answers.length = 0;
    const file = join(tmpdir(), `driver-${process.pid}.heapsnapshot`);
    try {
      writeHeapSnapshot(file);
      // the snapshot collects garbage first: a string of the rows found there is still held by something
      const text = readFileSync(file, 'utf8');
      expect([0, 1, 2, 3].filter((i) => text.includes(`${marker}-${i}xxxx`))).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('a connection ended by the server mid-query fails that query only; the next query works', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // settled into a value at once: it rejects while the loop below is still waiting
      const slow = db.query('select pg_sleep(5)').then(
        () => null,
        (error: Error) => error,
      );
      // wait until the query runs, then end its backend
      let ended = 0;
      for (let i = 0; i < 50 && ended === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const { rows } = await admin.query(
          `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
           where query = 'select pg_sleep(5)' and pid <> pg_backend_pid()) t`,
        );
        ended = rows[0].n;
      }
      expect(ended).toBe(1);
      expect(await slow).toBeInstanceOf(Error);
      expect(await db.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
  });
});
