/**
 * `npm run bench:scale` (DESIGN §11.2): the reference market — `--projects 5000` (default) × `--flats 200`
 * lots on sale, `--days 365` of daily lists — loaded fast, then measured through real HTTP as analysts use
 * it, then one whole day of every project's list through the real import path (POST /api/ingest/snapshots).
 *
 * The load is bulk: each project's year goes through the importer's batch path (`applyProjectBatch`: one
 * transaction, the model built in memory, rows written with COPY / unnest, the derived data kept at the
 * end), by two loader processes on PostgreSQL. Database: a fresh one on the server of DATABASE_URL or
 * TEST_DATABASE_URL, dropped afterwards (`--keep` keeps it; SCALE_DATABASE_URL measures a loaded one again);
 * `--pglite` loads into an embedded database instead (one loader: a data dir is one process's; use it with
 * `--projects 200`). The server is `cena-metra serve` in its own process, as in production.
 * Then the state registry at the country's scale (scale-registry.ts; PostgreSQL only): `--registry-objects`
 * (12,000) with a year of daily states, a day's registry import and the registry's reads.
 * Options: --projects, --flats, --days, --pglite, --keep, --verbose, --registry-objects, --registry-only.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from 'cena-metra/dist/src/db/driver.js';
import { analyzeAfterBulkLoad, migrate } from 'cena-metra/dist/src/db/migrate.js';
import { addUser, getUserByName } from 'cena-metra/dist/src/db/queries/users.js';
import { Importer } from 'cena-metra/dist/src/ingest/importer.js';
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';
import { apiSnapshot, benchLocation, benchSnapshots } from './market.js';
import {
  benchDatabase,
  dirBytes,
  numberOption,
  percentile,
  type Row,
  reportRun,
  rssMb,
  runNode,
  signIn,
  startServer,
  timedKeptAlive,
} from './measure.js';
import { flatsOnSale } from './scale-hedonic.js';
import { keepSpansBench, marketBench } from './scale-market.js';
import { registryBench } from './scale-registry.js';
import { marketPageBench } from './web.js';

const argv = process.argv.slice(2);
const PROJECTS = numberOption(argv, 'projects', 5000);
const FLATS = numberOption(argv, 'flats', 200);
const DAYS = numberOption(argv, 'days', 365);
const PGLITE = argv.includes('--pglite');
/** the state registry's objects (DESIGN §12.3: the country's ≈ 12,000), a year of daily states each */
const REGISTRY_OBJECTS = numberOption(argv, 'registry-objects', 12_000);
/** only the registry's part (on a loaded database: SCALE_DATABASE_URL) */
const REGISTRY_ONLY = argv.includes('--registry-only');
const WORKERS = PGLITE ? 1 : 2;
const DEVELOPERS = Math.max(1, Math.round(PROJECTS / 10));
const note = (s: string) => process.stderr.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// a year of daily lists, then the day imported under measure
const LAST = toDay('2026-11-21');
const DATES = Array.from({ length: DAYS }, (_, d) => fromDay(LAST - DAYS + 1 + d));
// the day imported under measure: the one after the year, or after the last day a measured-again database has
let NEXT_DAY = fromDay(LAST + 1);
/** the days after the year up to NEXT_DAY (the lists are generated day by day, the last one imported) */
let AFTER: string[] = [NEXT_DAY];
const names = (p: number) => ({
  developer: `Застройщик ${1 + (p % DEVELOPERS)}`,
  project: `Проект ${p + 1}`,
});
const market = (p: number, dates: string[]) =>
  benchSnapshots({ flats: FLATS, dates, seed: 10_000 + p, ...names(p), location: benchLocation(p) });

/** Projects [from, to) of the market, each its year in one batch (a loader process's share). */
async function load(db: Awaited<ReturnType<typeof openDb>>, from: number, to: number) {
  const importer = new Importer(db, 2);
  const t = performance.now();
  for (let p = from; p < to; p++) {
    const { developer, project } = names(p);
    await importer.applyProjectBatch(developer, project, market(p, DATES));
    if ((p + 1 - from) % 250 === 0)
      note(`scale: загрузчик ${from}…${to}: ${p + 1 - from}/${to - from} (${secs(performance.now() - t)})`);
  }
}

async function main() {
  const existing = process.env.SCALE_DATABASE_URL;
  const base = existing || process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!PGLITE && !base)
    throw new Error('bench:scale runs on PostgreSQL: set DATABASE_URL or TEST_DATABASE_URL (or --pglite)');
  const dataDir = PGLITE ? mkdtempSync(join(tmpdir(), 'cena-scale-')) : '';
  const database = PGLITE ? null : await benchDatabase(base!, 'cena_scale', Boolean(existing));
  const serverEnv = PGLITE ? { DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: database!.url };
  let db = await openDb(PGLITE ? { dataDir } : { databaseUrl: database!.url });
  const rows: Row[] = [];
  let server: ReturnType<typeof startServer> | null = null;
  try {
    if (!existing) {
      await migrate(db);
      note(
        `scale: ${PROJECTS} проектов × ${FLATS} лотов × ${DAYS} ежедневных снимков (${DATES[0]} … ${DATES.at(-1)}), загрузчиков: ${WORKERS}…`,
      );
      // loaded by child processes: a loader's heap would otherwise be this process's, which times the
      // requests; on PGlite the data dir is one process's, so this one lets go of it meanwhile
      if (PGLITE) await db.close();
      const t = performance.now();
      const share = Math.ceil(PROJECTS / WORKERS);
      const children = await Promise.all(
        Array.from({ length: WORKERS }, (_, w) =>
          runNode(
            fileURLToPath(import.meta.url),
            [
              ...argv,
              '--load-only',
              '--from',
              String(w * share),
              '--to',
              String(Math.min(PROJECTS, (w + 1) * share)),
            ],
            tmpdir(),
            PGLITE ? { SCALE_LOAD_DIR: dataDir } : { SCALE_LOAD_URL: database!.url },
          ),
        ),
      );
      for (const child of children) {
        process.stderr.write(child.stderr);
        if (child.code !== 0) throw new Error(`load failed (exit ${child.code})`);
      }
      if (PGLITE) db = await openDb({ dataDir });
      await analyzeAfterBulkLoad(db);
      const loadMs = performance.now() - t;
      const [{ flats, observations, bytes }] = await db.query<{
        flats: number;
        observations: number;
        bytes: number;
      }>(
        `select (select count(*) from flat_segment where end_day is null)::int as flats,
                (select count(*) from flat_observation)::int as observations,
                pg_database_size(current_database())::bigint as bytes`,
      );
      const size = PGLITE ? dirBytes(dataDir) : bytes;
      // where the bytes are: the largest tables with their indexes and TOAST
      const tables = await db.query<{ name: string; bytes: number }>(
        `select c.relname as name, pg_total_relation_size(c.oid)::bigint as bytes from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relkind = 'r' order by 2 desc limit 6`,
      );
      rows.push(
        {
          what: `history: ${PROJECTS} projects × ${DAYS} daily lists (${FLATS} lots each), bulk (batch) load, ${WORKERS} loader(s)`,
          value: `${secs(loadMs)}; ${flats.toLocaleString('en')} lots on sale, ${observations.toLocaleString('en')} observation rows`,
        },
        {
          what: `database size (${PGLITE ? 'PGlite data dir' : 'PostgreSQL'}) / per year of daily lists`,
          value: `${(size / 1e9).toFixed(2)} GB / ${((size / 1e9) * (365 / DAYS)).toFixed(2)} GB`,
        },
        {
          what: 'the largest tables (with indexes)',
          value: tables.map((t) => `${t.name} ${(Number(t.bytes) / 1e6).toFixed(0)} MB`).join(', '),
        },
      );
    }
    if (PGLITE) await db.close();

    // a database measured again (SCALE_DATABASE_URL) has the user from the first run
    if (PGLITE) db = await openDb({ dataDir });
    if (!(await getUserByName(db, 'bench'))) await addUser(db, 'bench', 'bench-password');
    // measured again: its last day was imported by the run before, so a new day is the one after it
    const [{ d: lastInDb }] = await db.query<{ d: string | null }>(
      'select max(last_snapshot_date)::text as d from project',
    );
    if (lastInDb && toDay(lastInDb) > LAST) {
      AFTER = Array.from({ length: toDay(lastInDb) + 1 - LAST }, (_, i) => fromDay(LAST + 1 + i));
      NEXT_DAY = AFTER.at(-1)!;
    }
    // the pace summaries (§10.5–10.6) and every other derived datum were kept by the load's imports
    // the market's spans, kept as the imports' rounds keep them (a database loaded before has none yet)
    await migrate(db);
    if (!REGISTRY_ONLY) await keepSpansBench(db, 'after the load', rows, note);
    // ids read now: on PGlite this process lets go of the data dir for the server
    const projectIds = (await db.query<{ id: number }>('select id from project order by id')).map(
      (r) => r.id,
    );
    const developerIds = (await db.query<{ id: number }>('select id from developer order by id')).map(
      (r) => r.id,
    );
    if (PGLITE) await db.close();
    // the whole market's discounts table is computed in one request for over a minute at 5,000 projects
    // (no budget, not yet kept): the server's idle socket timeout (60 s) would end it unanswered
    server = startServer({ ...serverEnv, HTTP_IDLE_TIMEOUT_SECONDS: '600' });
    const origin = await server.origin;
    const api = `${origin}/api`;
    const session = await signIn(origin, 'bench', 'bench-password');
    const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
    const { timed, agent } = timedKeptAlive(api, headers);
    // the state registry of the country beside the market (the server reads what this process loads)
    const registry = () =>
      registryBench(
        db,
        {
          timed,
          projects: PROJECTS,
          objects: REGISTRY_OBJECTS,
          last: LAST,
          days: DAYS,
          location: benchLocation,
          developerIds,
        },
        rows,
        note,
      );

    if (REGISTRY_ONLY) {
      await registry();
      agent.destroy();
      await server.stop();
      reportRun('scale-registry-latest.json', rows, {
        projects: PROJECTS,
        objects: REGISTRY_OBJECTS,
        days: DAYS,
      });
      return;
    }
    // stats of a sample of projects over the whole year: the first request reads the kept series, then 9 more
    const sample = projectIds.slice(0, Math.min(200, projectIds.length));
    note(`scale: stats of ${sample.length} projects…`);
    const firsts: number[] = [];
    const p50s: number[] = [];
    for (const projectId of sample) {
      const body = { projectId, from: DATES[0], to: DATES.at(-1) };
      firsts.push(await timed('/project/stats', body));
      const times: number[] = [];
      for (let i = 0; i < 9; i++) times.push(await timed('/project/stats', body));
      p50s.push(percentile(times, 50));
    }
    rows.push(
      {
        what: `stats, whole year, first request per project: p50 / max over ${sample.length}`,
        value: `${percentile(firsts, 50).toFixed(1)} / ${Math.max(...firsts).toFixed(1)} ms`,
      },
      {
        what: 'stats, whole year: p50 of the slowest project',
        value: `${Math.max(...p50s).toFixed(1)} ms`,
        budget: '≤ 30 ms',
        ok: Math.max(...p50s) <= 30,
      },
    );

    // the flats on sale at the moment (a day's lists sell some of those before it)
    const marketAndCompare = async (when: string) =>
      marketBench(
        {
          timed,
          projects: PROJECTS,
          projectIds,
          last: LAST,
          first: DATES[0],
          next: NEXT_DAY,
          flatIds: await flatsOnSale(db, projectIds),
          regions: Math.min(85, PROJECTS),
        },
        when,
        rows,
      );
    note('scale: рынок и сравнение…');
    await marketAndCompare('of a fresh server');

    note('scale: discounts and summaries…');
    const marketDiscounts = await timed('/discount/project', { period: 'MONTH' });
    const byDeveloper: number[] = [];
    for (const developerId of developerIds.slice(0, 50))
      byDeveloper.push(await timed('/discount/project', { period: 'WEEK', developerId }));
    const summaries = await timed('/summaries?limit=10');
    rows.push(
      {
        what: `discounts table of the whole market (${PROJECTS} projects, MONTH), cold`,
        value: `${marketDiscounts.toFixed(0)} ms`,
      },
      {
        what: `discounts table of one developer (WEEK), cold: p50 / max over ${byDeveloper.length}`,
        value: `${percentile(byDeveloper, 50).toFixed(1)} / ${Math.max(...byDeveloper).toFixed(1)} ms`,
      },
      { what: 'summaries list, cold', value: `${summaries.toFixed(0)} ms` },
    );

    if (PGLITE) note('scale: (PGlite: the registry is measured on PostgreSQL only)');
    else await registry();

    // one more day of the whole market through the API, 20 lists per request. The lists are generated
    // before the clock starts (a project's generator replays its whole year, ~80 ms a project: 6–7 min
    // of the bench's own work at 5,000 that the earlier runs counted in the import's time)
    note(`scale: ${NEXT_DAY}: ${PROJECTS} списков готовятся…`);
    const bodies: string[] = [];
    for (let from = 0; from < PROJECTS; from += 20) {
      const day: ReturnType<typeof apiSnapshot>[] = [];
      for (let p = from; p < Math.min(PROJECTS, from + 20); p++) {
        let last: Parameters<typeof apiSnapshot>[0] | undefined;
        for (const s of market(p, [...DATES, ...AFTER])) last = s;
        day.push(apiSnapshot(last!, benchLocation(p)));
      }
      bodies.push(JSON.stringify(day));
    }
    note(`scale: ${NEXT_DAY}: ${PROJECTS} списков через API…`);
    const t = performance.now();
    for (const [i, body] of bodies.entries()) {
      const res = await new Promise<{ status: number; text: string }>((done, fail) => {
        const req = http.request(
          `${api}/ingest/snapshots`,
          { method: 'POST', agent: false, headers },
          (r) => {
            let text = '';
            r.on('data', (c: Buffer) => (text += c));
            r.on('end', () => done({ status: r.statusCode ?? 0, text }));
            r.on('error', fail);
          },
        );
        req.on('error', fail);
        req.end(body);
      });
      if (res.status !== 200) throw new Error(`ingest: HTTP ${res.status}: ${res.text.slice(0, 300)}`);
      if (i % 25 === 24)
        note(`scale: ${Math.min(PROJECTS, (i + 1) * 20)}/${PROJECTS} (${secs(performance.now() - t)})`);
    }
    const dayMs = performance.now() - t;
    rows.push({
      what: `one day of the whole market (${PROJECTS} lists, generated beforehand) through POST /api/ingest/snapshots`,
      value: secs(dayMs),
      budget: '≤ 15 min',
      ok: dayMs <= 15 * 60_000,
    });
    // the server's rounds follow the day's imports; this one waits for them and makes what is left
    if (PGLITE) note('scale: (PGlite: the server holds the data dir; its own rounds keep the spans)');
    else await keepSpansBench(db, 'after the day', rows, note);
    await marketAndCompare('after the day');
    // the day's import kept each project's discounts (derive/latest.ts): the market's table reads them
    const discountsAfter = await timed('/discount/project', { period: 'MONTH' });
    rows.push({
      what: `discounts table of the whole market (${PROJECTS} projects, MONTH), first request after the day`,
      value: `${discountsAfter.toFixed(0)} ms`,
      budget: '≤ 1,000 ms',
      ok: discountsAfter <= 1000,
    });
    // the page itself, in Chromium: the map of every project and the table by district
    await marketPageBench(origin, session, rows, note, `${PROJECTS} projects`);

    // a team opening many projects: stats and pace of 1,000 different ones, then the server's memory
    const opened = projectIds.slice(0, Math.min(1000, projectIds.length));
    note(`scale: ${opened.length} проектов открыто…`);
    for (const projectId of opened) {
      await timed('/project/stats', { projectId, from: DATES[0], to: NEXT_DAY });
      await timed('/project/pace', { projectId, from: DATES[0], to: NEXT_DAY });
    }
    const rss = rssMb(server.pid);
    rows.push({
      what: `server RSS after opening ${opened.length} different projects (stats and pace)`,
      value: `${Math.round(rss)} MB`,
      budget: '≤ 1,024 MB',
      ok: rss <= 1024,
    });
    agent.destroy();
    await server.stop();

    reportRun(PGLITE ? 'scale-pglite-latest.json' : 'scale-latest.json', rows, {
      projects: PROJECTS,
      flats: FLATS,
      days: DAYS,
      database: PGLITE ? 'pglite' : 'postgresql',
    });
  } catch (error) {
    // a step that fails does not take the figures of those before it with it
    rows.push({ what: `stopped: ${(error as Error).message.split('\n')[0]}`, value: '—' });
    reportRun('scale-stopped.json', rows, { projects: PROJECTS, flats: FLATS, days: DAYS });
    throw error;
  } finally {
    await server?.stop();
    await db.close().catch(() => {});
    const keep = argv.includes('--keep') && !existing;
    if (database) {
      if (keep) note(`scale: kept: SCALE_DATABASE_URL=${database.url}`);
      await database.close(keep);
    } else if (!keep) rmSync(dataDir, { recursive: true, force: true });
    else note(`scale: kept: ${dataDir}`);
  }
}

if (argv.includes('--load-only')) {
  const from = Number(argv[argv.indexOf('--from') + 1] ?? 0);
  const to = numberOption(argv, 'to', PROJECTS);
  const db = await openDb(
    process.env.SCALE_LOAD_DIR
      ? { dataDir: process.env.SCALE_LOAD_DIR }
      : { databaseUrl: process.env.SCALE_LOAD_URL },
  );
  try {
    await load(db, from, to);
  } finally {
    await db.close();
  }
} else await main();
