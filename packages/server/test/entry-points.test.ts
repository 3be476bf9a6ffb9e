import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchRulesSchema } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { addUser, createSession } from '../src/db/queries/users.js';
import { addWatch } from '../src/db/queries/watch.js';
import { runJob } from '../src/jobs/jobs.js';
import { fromDay, toDay, todayIn } from '../src/lib/days.js';
import { collectJob } from '../src/use-cases/collect-job.js';
import { describeEachDb } from './databases.js';

// DESIGN §12.2: an import has one door (use-cases/imports.ts, collect.ts), whichever entry point it came
// through — the API, a collection by hand, the daily job, the CLI's import and collect. Through each, a new
// day of a project is audited, keeps its derived data, raises the watchlists' alerts and (in a server)
// drops the cached reads, alike.

process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/cena-metra.js');
// a collection is of today (where the server is): the first day is yesterday
const TODAY = todayIn('Europe/Moscow');
const DAYS = [fromDay(toDay(TODAY) - 1), TODAY];

/** The project's list of a day: two flats, a third new on the second day. */
let project = 'Одна дверь';
const list = (day: number) => ({
  date: DAYS[day],
  developer: 'Вход',
  project,
  flats: [
    { id: 'a', building: '1', rooms: 1, area: 40, price: 9_000_000 },
    { id: 'b', building: '1', rooms: 2, area: 60, price: 13_000_000 },
    ...(day ? [{ id: 'c', building: '1', rooms: 3, area: 80, price: 17_000_000 }] : []),
  ],
});

/** A feed server whose list is the day set by the test. */
let feed: Server;
let feedUrl = '';
let feedDay = 0;
beforeAll(async () => {
  feed = createServer((_req, res) => res.writeHead(200).end(JSON.stringify(list(feedDay))));
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/list.json`;
});
afterAll(async () => {
  feed.closeAllConnections();
  await new Promise((r) => feed.close(r));
});

/** What an import of the second day must have left, through whichever door. */
async function expectFollowed(db: Db, act: 'import' | 'collect.run', actor: RegExp) {
  // audited, by its actor
  const audited = await db.query<{ actor: string }>('select actor from audit_log where action = $1', [act]);
  expect(audited.length, act).toBeGreaterThanOrEqual(1);
  expect(audited[audited.length - 1].actor).toMatch(actor);
  // the derived data kept: the day's summary row with its new flat
  const [summary] = await db.query<{ new_flats: number }>(
    'select new_flats from summary_project where date = $1 and project_id = (select id from project where name = $2)',
    [DAYS[1], project],
  );
  expect(summary?.new_flats).toBe(1);
  // the watchlist's alert of the new flat (a server computes it after answering: wait for it)
  let alerts: { kind: string }[] = [];
  for (let i = 0; i < 100 && alerts.length === 0; i++) {
    alerts = await db.query<{ kind: string }>('select kind from watch_alert');
    if (!alerts.length) await new Promise((r) => setTimeout(r, 50));
  }
  expect(alerts.map((a) => a.kind)).toEqual(['NEW']);
}

/** An analyst's watch of the project's new flats, made after the first day. */
async function watchNewFlats(db: Db, userId: number) {
  const [{ id }] = await db.query<{ id: number }>('select id from project where name = $1', [project]);
  await addWatch(db, userId, {
    kind: 'segment',
    projectId: id,
    rooms: 'all',
    rules: watchRulesSchema.parse({ fresh: true }),
  });
}

describeEachDb('one door: every entry point of an import follows it alike', (ctx) => {
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let analystId = 0;
  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    const boss = await addUser(ctx.db, 'boss', 'boss-password');
    analystId = (await addUser(ctx.db, 'ann', 'ann-password', 'analyst')).id;
    admin = { authorization: `Bearer ${await createSession(ctx.db, boss.id)}` };
  });
  afterAll(async () => app?.close());

  /** A cached read (an ETag of the data version): the project's last list, which a server must not keep. */
  const latestSummary = async () => {
    const developers = (await app.inject({ method: 'GET', url: '/api/developers', headers: admin })).json();
    const developer = developers.find((d: { name: string }) => d.name === 'Вход');
    const projects = (
      await app.inject({ method: 'GET', url: `/api/projects?developerId=${developer.id}`, headers: admin })
    ).json();
    return projects.find((p: { name: string }) => p.name === project)?.lastSnapshotDate ?? null;
  };
  /** The first day imported through the API (a collection is always of today). */
  const firstDay = async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: admin,
      payload: list(0),
    });
    expect(res.statusCode).toBe(200);
  };
  /** Each door its own project, and no watch, source or run of another. */
  const reset = async (name: string) => {
    project = name;
    for (const t of ['watch_alert', 'alert_cursor', 'watch', 'source_run', 'source', 'job_run'])
      await ctx.db.query(`delete from ${t}`);
  };

  it('the API import', async () => {
    await reset('Через API');
    const imp = (day: number) =>
      app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers: admin, payload: list(day) });
    expect((await imp(0)).statusCode).toBe(200);
    await watchNewFlats(ctx.db, analystId);
    expect(await latestSummary()).toBe(DAYS[0]);
    expect((await imp(1)).statusCode).toBe(200);
    expect(await latestSummary()).toBe(DAYS[1]);
    await expectFollowed(ctx.db, 'import', /^boss$/);
  });

  it('a collection by hand («Собрать»)', async () => {
    await reset('Собран вручную');
    const source = (
      await app.inject({
        method: 'POST',
        url: '/api/sources',
        headers: admin,
        payload: { name: 'Вход', kind: 'json', url: feedUrl },
      })
    ).json();
    const run = () => app.inject({ method: 'POST', url: `/api/sources/${source.id}/run`, headers: admin });
    await firstDay();
    await watchNewFlats(ctx.db, analystId);
    expect(await latestSummary()).toBe(DAYS[0]);
    feedDay = 1;
    expect((await run()).json().status).toBe('done');
    expect(await latestSummary()).toBe(DAYS[1]);
    await expectFollowed(ctx.db, 'collect.run', /^boss$/);
  });

  it('the daily job, with the server as its host', async () => {
    await reset('По расписанию');
    await app.inject({
      method: 'POST',
      url: '/api/sources',
      headers: admin,
      payload: { name: 'Вход', kind: 'json', url: feedUrl },
    });
    const job = collectJob({ host: app.host, collectAt: '06:00', timezone: 'Europe/Moscow' });
    const quiet = { info() {}, warn() {}, error() {} };
    await firstDay();
    await watchNewFlats(ctx.db, analystId);
    expect(await latestSummary()).toBe(DAYS[0]);
    feedDay = 1;
    await runJob(ctx.db, job, quiet, new Date());
    expect(await latestSummary()).toBe(DAYS[1]);
    await expectFollowed(ctx.db, 'collect.run', /^расписание$/);
  });
});

describe('one door: the CLI', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cena-door-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A command in a child process, awaited (not spawnSync: the feed it collects is served by this one). */
  const cli = (dir: string, ...args: string[]) =>
    new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, [BIN, '--data-dir', dir, ...args], {
        env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', COLLECT_ALLOW_HOSTS: '127.0.0.1:*' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('error', fail);
      child.on('close', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}: ${stderr}`))));
    });
  /** The data dir opened in this process between two commands (PGlite: one process at a time). */
  const withDb = async <T>(dir: string, body: (db: Db) => Promise<T>): Promise<T> => {
    const db = await openDb({ dataDir: dir });
    try {
      await migrate(db);
      return await body(db);
    } finally {
      await db.close();
    }
  };

  it('cena-metra import', async () => {
    project = 'Из файла';
    const dir = join(work, 'import');
    const file = (day: number) => {
      const path = join(work, `day${day}.json`);
      writeFileSync(path, JSON.stringify(list(day)));
      return path;
    };
    await cli(dir, 'import', file(0));
    await withDb(dir, async (db) =>
      watchNewFlats(db, (await addUser(db, 'ann', 'ann-password', 'analyst')).id),
    );
    await cli(dir, 'import', file(1));
    await withDb(dir, (db) => expectFollowed(db, 'import', /^cli/));
  });

  it('cena-metra collect', async () => {
    project = 'Собран командой';
    const dir = join(work, 'collect');
    await cli(dir, 'source', 'add', 'Вход', '--kind', 'json', '--url', feedUrl);
    feedDay = 0;
    await cli(dir, 'collect', '--date', DAYS[0]);
    await withDb(dir, async (db) =>
      watchNewFlats(db, (await addUser(db, 'ann', 'ann-password', 'analyst')).id),
    );
    feedDay = 1;
    await cli(dir, 'collect', '--date', DAYS[1]);
    await withDb(dir, (db) => expectFollowed(db, 'collect.run', /^cli/));
  });
});
