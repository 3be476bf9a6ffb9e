import { createServer, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { ReadRouter } from '../src/db/replicas.js';
import { freshDb } from './databases.js';
import {
  canStartReplica,
  startCluster,
  startReplica,
  type TestCluster,
  type TestReplica,
} from './replica.js';
import { signedInApp } from './signed-in-app.js';

// Reads from PostgreSQL streaming replicas (DESIGN §11.2), against a real replica this test starts from
// a cluster of its own (its copy as quick whatever the test cluster holds). In CI a machine that cannot start one is a failure, not a skip.
const runnable = Boolean(testDatabaseUrl()) && canStartReplica();
if (process.env.CI && !runnable)
  throw new Error('the replica test needs TEST_DATABASE_URL, root and PostgreSQL 15 (see .ci/run)');

const lot = (id: string, price: number) => ({ id, building: '1', floor: 2, rooms: 1, area: 40, price });
const day = (date: string, price: number) => ({
  date,
  developer: 'Реплика',
  project: 'Дом',
  flats: [lot('a', price), lot('b', 6_000_000)],
});

/** Waits out the data version's 1 s cache, so the next request reads the database again. */
const pastVersionTtl = () => new Promise((r) => setTimeout(r, 1_100));

/** Waits until `ok()` holds, looking every 100 ms, for at most `ms`. */
async function until(ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(runnable)('reads from a streaming replica [postgresql]', () => {
  let primary: { db: Db; drop: () => Promise<void>; url?: string };
  let cluster: TestCluster;
  let replica: TestReplica;
  let strict: ReadRouter; // MAX_REPLICA_LAG_S = 1
  let tolerant: ReadRouter; // MAX_REPLICA_LAG_S = 3600
  let app: FastifyInstance;
  let headers: Record<string, string>;
  let lenient: FastifyInstance;
  let lenientHeaders: Record<string, string>;
  let projectId = 0;
  const name = () => new URL(primary.url!).pathname.slice(1);

  beforeAll(async () => {
    cluster = startCluster();
    primary = await freshDb('postgresql', undefined, cluster.url('postgres'));
    replica = startReplica(cluster.url('postgres'));
    const options = { timeoutMs: 2_000, checkEveryMs: 200 };
    strict = await ReadRouter.open(primary.db, [replica.url(name())], { ...options, maxLagS: 1 });
    tolerant = await ReadRouter.open(primary.db, [replica.url(name())], { ...options, maxLagS: 3600 });
    ({ app, headers } = await signedInApp(primary.db, {}, strict));
    ({ app: lenient, headers: lenientHeaders } = await signedInApp(primary.db, {}, tolerant, 'reader'));
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [day('2026-03-01', 8_000_000), day('2026-03-02', 7_900_000)],
    });
    expect(res.statusCode, res.body).toBe(200);
    [{ id: projectId }] = await primary.db.query<{ id: number }>("select id from project where name = 'Дом'");
    // the market's round after the import written on the primary before the replica is waited for
    await app.marketKeeper.idle();
    // the replica has replayed the import
    await until(async () => {
      await strict.check();
      return strict.status()[0].state === 'ok';
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await lenient?.close();
    await strict?.close();
    await tolerant?.close();
    replica?.remove();
    await primary?.drop();
    cluster?.remove();
  });

  const dates = async (on = app, auth = headers) => {
    const res = await on.inject({ method: 'GET', url: `/api/chess?projectId=${projectId}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().dates as string[];
  };
  /** every kind of replica read answers 200 */
  const everyRead = async () => {
    const asked = [
      { method: 'GET', url: `/api/chess?projectId=${projectId}` },
      {
        method: 'POST',
        url: '/api/project/stats',
        payload: { projectId, from: '2026-03-01', to: '2026-03-31' },
      },
      {
        method: 'POST',
        url: '/api/project/pace',
        payload: { projectId, from: '2026-03-01', to: '2026-03-31' },
      },
      { method: 'POST', url: '/api/market', payload: { from: '2026-03-01', to: '2026-03-31' } },
      { method: 'GET', url: '/api/developers' },
    ] as const;
    for (const r of asked) {
      const res = await app.inject({ ...r, headers } as Parameters<FastifyInstance['inject']>[0] & object);
      expect(res.statusCode, `${r.url}: ${res.body}`).toBe(200);
    }
  };

  it('reads land on the replica, writes on the primary', async () => {
    const before = strict.status()[0].reads;
    expect(await dates()).toEqual(['2026-03-01', '2026-03-02']);
    await everyRead();
    expect(strict.status()[0].reads).toBeGreaterThan(before);
    const primaryBefore = strict.primaryReads;
    await everyRead();
    expect(strict.primaryReads).toBe(primaryBefore);
    // sessions stay on the primary: the sign-in above wrote one, the replica would have refused the write
    const [{ n }] = await primary.db.query<{ n: number }>('select count(*)::int as n from session');
    expect(n).toBeGreaterThanOrEqual(2);
  });

  it('a replica lagging past MAX_REPLICA_LAG_S is skipped, and comes back', async () => {
    await replica.sql('select pg_wal_replay_pause()');
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/ingest/snapshots',
        headers,
        payload: [day('2026-03-03', 7_800_000)],
      });
      expect(res.statusCode, res.body).toBe(200);
      await app.marketKeeper.idle();
      // the tolerant reader still reads the paused replica: the day written on the primary is not there yet
      await until(async () => {
        await tolerant.check();
        return tolerant.status()[0].lagSeconds !== 0;
      });
      expect(tolerant.status()[0].state).toBe('ok');
      expect(await dates(lenient, lenientHeaders)).toEqual(['2026-03-01', '2026-03-02']);
      // the strict one skips it once it is a second behind, and reads the primary
      await until(() => strict.status()[0].state === 'lagging');
      expect(await dates()).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
      await everyRead();
      const health = (await app.inject({ method: 'GET', url: '/api/health' })).json();
      expect(health.readReplicas).toMatchObject([{ replica: 1, state: 'lagging' }]);
    } finally {
      await replica.sql('select pg_wal_replay_resume()');
    }
    await until(() => strict.status()[0].state === 'ok');
    const reads = strict.status()[0].reads;
    await pastVersionTtl();
    expect(await dates()).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(strict.status()[0].reads).toBeGreaterThan(reads);
  });

  it('a replica stopped mid-run fails no request, and is read again once it is back', async () => {
    // a router that looked once and not since: its first read after the stop finds the replica gone
    const unaware = await ReadRouter.open(primary.db, [replica.url(name())], {
      maxLagS: 3600,
      timeoutMs: 2_000,
      checkEveryMs: 3_600_000,
    });
    const { app: other, headers: otherHeaders } = await signedInApp(primary.db, {}, unaware, 'other');
    try {
      expect(unaware.status()[0].state).toBe('ok');
      // (the app read the market's list from it as it got ready)
      const before = unaware.status()[0].reads;
      replica.stop();
      expect(await dates(other, otherHeaders)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
      expect(unaware.status()[0]).toMatchObject({ state: 'down', reads: before });
      expect(unaware.primaryReads).toBeGreaterThan(0);
    } finally {
      await other.close();
      await unaware.close();
    }
    await everyRead();
    expect(await dates()).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    await until(() => strict.status()[0].state === 'down');
    replica.start();
    await until(() => strict.status()[0].state === 'ok');
    const reads = strict.status()[0].reads;
    await pastVersionTtl();
    await everyRead();
    expect(strict.status()[0].reads).toBeGreaterThan(reads);
  }, 30_000);

  it('a read handed over in pieces is not read again from the primary once a piece was taken; the consumer’s error is not the replica’s', async () => {
    const router = await ReadRouter.open(primary.db, [replica.url(name())], {
      maxLagS: 3600,
      timeoutMs: 2_000,
      checkEveryMs: 3_600_000,
    });
    // ~16 MB: many pieces
    const sql = `select g, decode(repeat('ab', 8000), 'hex') from generate_series(1, 2000) g order by g`;
    const types = ['int', 'bytea'] as const;
    try {
      expect(router.status()[0].state).toBe('ok');
      // the consumer fails: so does the read; the replica stays fit and the primary is not asked
      await expect(
        router.binaryEach(sql, [], types, () => {
          throw new Error('не та форма');
        }),
      ).rejects.toThrow('не та форма');
      expect(router.status()[0].state).toBe('ok');
      expect(router.primaryReads).toBe(0);
      // the replica stopped once the first piece was taken: the read fails, no row handed over twice
      const seen: number[] = [];
      await expect(
        router.binaryEach(sql, [], types, (rows) => {
          if (seen.length === 0) replica.stop();
          for (const row of rows) seen.push(row[0] as number);
        }),
      ).rejects.toThrow();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.length).toBeLessThan(2000);
      expect(seen).toEqual(seen.map((_, i) => i + 1));
      expect(router.status()[0].state).toBe('down');
      expect(router.primaryReads).toBe(0);
      // the next read is the primary's, whole
      const all: number[] = [];
      await router.binaryEach(sql, [], types, (rows) => {
        for (const row of rows) all.push(row[0] as number);
      });
      expect(all).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
      expect(router.primaryReads).toBe(1);
    } finally {
      await router.close();
      replica.start();
      await until(() => strict.status()[0].state === 'ok');
    }
  }, 30_000);
});

describe.runIf(Boolean(testDatabaseUrl()) || process.env.CI)(
  'replicas that answer garbage or hang [postgresql]',
  () => {
    let primary: { db: Db; drop: () => Promise<void> };
    let router: ReadRouter;
    let app: FastifyInstance;
    let headers: Record<string, string>;
    const servers: Server[] = [];
    const listen = (onConnection: Parameters<typeof createServer>[0]) =>
      new Promise<number>((resolve) => {
        const server = createServer(onConnection).listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : 0);
        });
        servers.push(server);
      });

    beforeAll(async () => {
      primary = await freshDb('postgresql');
      // one answers every connection with bytes that are not PostgreSQL's protocol, one never answers
      const garbage = await listen((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n\u0000\u00ff garbage'));
      const hang = await listen(() => {});
      router = await ReadRouter.open(
        primary.db,
        [`postgresql://x@127.0.0.1:${garbage}/db`, `postgresql://x@127.0.0.1:${hang}/db`],
        { maxLagS: 30, timeoutMs: 300, checkEveryMs: 200 },
      );
      ({ app, headers } = await signedInApp(primary.db, {}, router));
    });
    afterAll(async () => {
      await app?.close();
      await router?.close();
      for (const s of servers) s.close();
      await primary?.drop();
    });

    it('are skipped: every read answers from the primary, none is a 500', async () => {
      expect(router.status().map((r) => r.state)).toEqual(['down', 'down']);
      for (const url of ['/api/developers', '/api/search?q=Дом', '/api/health']) {
        const res = await app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      }
      const res = await app.inject({
        method: 'POST',
        url: '/api/market',
        headers,
        payload: { from: '2026-03-01', to: '2026-03-31' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(router.primaryReads).toBeGreaterThan(0);
      expect(router.status().every((r) => r.reads === 0)).toBe(true);
    });
  },
);
