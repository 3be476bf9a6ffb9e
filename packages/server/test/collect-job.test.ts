import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText } from '../src/collect/report.js';
import { nextCollect } from '../src/collect/schedule.js';
import { addSource } from '../src/collect/sources.js';
import { openDb } from '../src/db/driver.js';
import { listSources } from '../src/db/queries/sources.js';
import { Importer } from '../src/ingest/importer.js';
import { type JobLog, runJob } from '../src/jobs/jobs.js';
import { todayIn } from '../src/lib/days.js';
import { collectDay } from '../src/use-cases/collect.js';
import { COLLECT_JOB, collectJob } from '../src/use-cases/collect-job.js';
import { commandHost } from '../src/use-cases/host.js';
import { freshDb } from './databases.js';

// the feeds these tests collect are served on this machine: allowed as an operator allows an intranet
// host (DESIGN §11.5; test/collect-guard.test.ts holds the refusals)
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

// The daily collection (DESIGN §10.8): all enabled sources, failing ones reported, once across instances.

const FEED = readFileSync(new URL('./fixtures/yrl/feed.xml', import.meta.url));
const quiet: JobLog = { info() {}, warn() {}, error() {} };
const fast = { backoffMs: 5, retries: 1, timeoutMs: 2_000 };

let server: Server;
let base = '';
let feedCalls = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      feedCalls++;
      res.writeHead(200).end(FEED);
    } else res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('the daily collection', () => {
  it('runs at COLLECT_AT in COLLECT_TZ, for the day there', () => {
    // 03:30 UTC is 06:30 in Moscow: the next run is tomorrow 06:00 Moscow = 03:00 UTC
    const now = new Date('2026-11-23T03:30:00Z');
    expect(nextCollect('06:00', 'Europe/Moscow', now)?.toISOString()).toBe('2026-11-24T03:00:00.000Z');
    expect(todayIn('Europe/Moscow', new Date('2026-11-23T22:30:00Z'))).toBe('2026-11-24');
    expect(todayIn('UTC', new Date('2026-11-23T22:30:00Z'))).toBe('2026-11-23');
  });

  it('collects every enabled source; a source failing twice in a row is reported', async () => {
    const { db, drop } = await freshDb('pglite');
    try {
      await addSource(db, { name: 'Фид', kind: 'yrl', url: `${base}/feed.xml` });
      await addSource(db, { name: 'Сломан', kind: 'json', url: `${base}/broken.json` });
      await addSource(db, { name: 'Выключен', kind: 'json', url: `${base}/off.json`, enabled: false });
      const host = commandHost(db, new Importer(db, 2));
      const first = await collectDay(host, await listSources(db), '2026-11-20', fast);
      expect(first).toMatchObject({ sources: 2, done: 1, failed: 1, flats: 5, failing: [], partial: [] });
      expect(reportText(first)).toBeNull();
      const second = await collectDay(host, await listSources(db), '2026-11-21', fast);
      expect(second.failing).toEqual(['Сломан']);
      expect(reportText(second)).toBe(
        'Сбор прайс-листов за 2026-11-21: источников 2, собрано 1.\nНе собираются второй раз подряд: Сломан.',
      );
      // each day's collection is in the audit log, by the schedule
      const logged = await db.query<{ actor: string; target: string; after: { failed: number } }>(
        "select actor, target, after from audit_log where action = 'collect.scheduled' order by id",
      );
      expect(logged.map((r) => [r.actor, r.target, r.after.failed])).toEqual([
        ['расписание', 'сбор за 2026-11-20', 1],
        ['расписание', 'сбор за 2026-11-21', 1],
      ]);
    } finally {
      await drop();
    }
  });

  it('two servers on one PostgreSQL collect once a day; the report goes to the admin chat', async () => {
    const first = await freshDb('postgresql');
    const second = await openDb({ databaseUrl: first.url! });
    try {
      await addSource(first.db, { name: 'Фид', kind: 'yrl', url: `${base}/feed.xml` });
      await addSource(first.db, { name: 'Сломан', kind: 'json', url: `${base}/broken.json` });
      const sent: string[] = [];
      const job = (db: typeof first.db) =>
        collectJob({
          host: commandHost(db, new Importer(db, 2)),
          collectAt: '06:00',
          timezone: 'Europe/Moscow',
          fetch: fast,
          notify: async (text) => {
            sent.push(text);
          },
        });
      const before = feedCalls;
      const now = new Date();
      const [a, b] = await Promise.all([
        runJob(first.db, job(first.db), quiet, now),
        runJob(second, job(second), quiet, now),
      ]);
      expect([a.status, b.status].sort()).toEqual(['done', 'skipped']);
      expect(feedCalls - before).toBe(1);
      const runs = await first.db.query<{ n: number }>(
        `select count(*)::int as n from job_run where job = $1 and status = 'done'`,
        [COLLECT_JOB],
      );
      expect(runs[0].n).toBe(1);
      // the next day, again once; «Сломан» has now failed twice: said once in the admin chat
      const tomorrow = new Date(now.getTime() + 86_400_000);
      await Promise.all([
        runJob(first.db, job(first.db), quiet, tomorrow),
        runJob(second, job(second), quiet, tomorrow),
      ]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('Не собираются второй раз подряд: Сломан.');
    } finally {
      await second.close();
      await first.drop();
    }
  });
});
