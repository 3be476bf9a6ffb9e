import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { StatsResponse } from '@cena-metra/contract';
import { buildApp } from 'cena-metra/dist/src/app.js';
import { addUser } from 'cena-metra/dist/src/auth/users.js';
import { loadConfig } from 'cena-metra/dist/src/config.js';
import { openDb } from 'cena-metra/dist/src/db/driver.js';
import { analyzeAfterBulkLoad, migrate } from 'cena-metra/dist/src/db/migrate.js';
import { Importer } from 'cena-metra/dist/src/ingest/importer.js';
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';
import { alertsBench } from './alerts.js';
import { apiLoadBench, exportLoadBench } from './api-load.js';
import { coldBench } from './cold.js';
import { collectBench } from './collect.js';
import { benchCsv, benchSnapshots } from './market.js';
import {
  BIN,
  benchDatabase,
  numberOption,
  percentile,
  printTable,
  type Row,
  runNode,
  signIn,
  writeResults,
} from './measure.js';
import { naiveStats } from './naive.js';
import { webBench } from './web.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GRACE = 2;

const argv = process.argv.slice(2);
const args = new Set(argv);
const only = (part: string) =>
  !['--stats', '--import', '--demo', '--web', '--api', '--collect', '--alerts'].some((a) => args.has(a)) ||
  args.has(`--${part}`);
const option = (name: string, fallback: number) => numberOption(argv, name, fallback);
// dataset sizes (the budgets are stated for the defaults)
const STATS_FLATS = option('flats', 2000);
const STATS_DAYS = option('days', 3 * 365 + 1);
const IMPORT_FLATS = option('import-flats', 100_000);
const COLLECT_OFFERS = option('collect-offers', 100_000);
const COLLECT_SOURCES = option('collect-sources', 200);
const WATCHES = option('watches', 10_000);
const DEFAULT_STATS_SIZE = STATS_FLATS === 2000 && STATS_DAYS === 3 * 365 + 1;
/** PostgreSQL of DATABASE_URL: the stats part runs there too, in a fresh database. */
const PG_URL = process.env.DATABASE_URL || undefined;
const work = mkdtempSync(join(tmpdir(), 'cena-bench-'));
const rows: Row[] = [];
const note = (s: string) => process.stderr.write(`${s}\n`);
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** §issue 2: stats of a 2,000-flat project with 3 years of daily snapshots, engine through the API vs naive. */
async function statsBench(kind: 'pglite' | 'postgresql') {
  const dataDir = join(work, 'stats');
  let dropPg = async () => {};
  let db: Awaited<ReturnType<typeof openDb>>;
  // an empty DATABASE_URL: the server opens the data dir even when the bench runs with one set
  let env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
  if (kind === 'postgresql') {
    const database = await benchDatabase(PG_URL!, 'cena_bench');
    dropPg = () => database.close();
    db = await openDb({ databaseUrl: database.url });
    env = { DATABASE_URL: database.url };
  } else db = await openDb({ dataDir });
  try {
    await statsOn(db, kind, dataDir);
    const [{ id: projectId }] = await db.query<{ id: number }>(
      "select id from project where name = 'Большой проект'",
    );
    // the server in its own process opens the database: PGlite's data dir is one process's
    await db.close();
    await coldBench(
      {
        env,
        projectId,
        flats: STATS_FLATS,
        days: STATS_DAYS,
        start: '2023-01-01',
        seed: 2026,
        at: kind === 'pglite' ? '' : ` [${kind}]`,
      },
      rows,
      note,
    );
  } finally {
    await db.close().catch(() => {});
    await dropPg();
  }
}

async function statsOn(db: Awaited<ReturnType<typeof openDb>>, kind: string, dataDir: string) {
  await migrate(db);
  const days = STATS_DAYS;
  const at = kind === 'pglite' ? '' : ` [${kind}]`;
  note(`stats${at}: загружаю проект ${STATS_FLATS} квартир × ${days} ежедневных снимков…`);
  const t0 = performance.now();
  await new Importer(db, GRACE).applyProjectBatch(
    'Бенчмарк',
    'Большой проект',
    benchSnapshots({ flats: STATS_FLATS, days, start: '2023-01-01', seed: 2026 }),
  );
  await analyzeAfterBulkLoad(db);
  rows.push({
    what: `load ${STATS_FLATS.toLocaleString('en')} flats × ${days} daily snapshots (one batch)${at}`,
    value: `${((performance.now() - t0) / 1000).toFixed(1)} s`,
  });
  const [{ id: projectId }] = await db.query<{ id: number }>(
    "select id from project where name = 'Большой проект'",
  );
  await addUser(db, 'bench', 'bench-password');
  const app = await buildApp({ db, config: loadConfig({ dataDir, logLevel: 'silent' }, {}), logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const base = `${origin}/api`;
  const { token } = await signIn(origin, 'bench', 'bench-password');
  const range = { projectId, from: '2023-01-01', to: fromDay(toDay('2023-01-01') + days - 1) };
  const request = async (body_ = range as object) => {
    const started = performance.now();
    const res = await fetch(`${base}/project/stats`, {
      method: 'POST',
      // identity: the engine's whole work per request (the body is rebuilt from its fragments each time)
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'accept-encoding': 'identity',
      },
      body: JSON.stringify(body_),
    });
    // latency until the whole body has arrived; decoding it is the client's business
    const body = Buffer.from(await res.arrayBuffer());
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`stats: HTTP ${res.status}: ${body.toString().slice(0, 200)}`);
    return { ms: elapsed, text: body.toString('utf8') };
  };
  const cold = await request();
  const times: number[] = [];
  for (let i = 0; i < 100; i++) times.push((await request()).ms);
  const p50 = percentile(times, 50);
  rows.push({ what: `stats via API, full range: first request (cache fill)${at}`, value: ms(cold.ms) });
  rows.push({
    what: `stats via API, full range: p50${at}`,
    value: ms(p50),
    budget: '≤ 30 ms',
    ok: p50 <= 30,
  });
  rows.push({ what: `stats via API, full range: p99${at}`, value: ms(percentile(times, 99)) });
  rows.push({
    what: `stats response size${at}`,
    value: `${(Buffer.byteLength(cold.text) / 1e6).toFixed(2)} MB`,
  });
  // answered from the cache, in process (no network): 304 to a known ETag, and the cached gzip body
  // the body is read as a stream of bytes: inject's default turns it into a string, which HTTP never does
  const inject = async (headers: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/project/stats',
      headers: { authorization: `Bearer ${token}`, ...headers },
      payload: range,
      payloadAsStream: true,
    });
    let bytes = 0;
    for await (const chunk of res.stream()) bytes += (chunk as Buffer).length;
    return { statusCode: res.statusCode, headers: res.headers, bytes };
  };
  const etag = (await inject({ 'accept-encoding': 'gzip' })).headers.etag as string;
  for (const [label, headers, status] of [
    ['304 to If-None-Match', { 'if-none-match': etag }, 304],
    ['cached gzip body', { 'accept-encoding': 'gzip' }, 200],
  ] as const) {
    const inProcess: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      const res = await inject(headers);
      inProcess.push(performance.now() - started);
      if (res.statusCode !== status) throw new Error(`stats ${label}: HTTP ${res.statusCode}`);
    }
    const p50c = percentile(inProcess, 50);
    rows.push({
      what: `stats from cache in process (${label}): p50${at}`,
      value: ms(p50c),
      budget: '≤ 2 ms',
      ok: p50c <= 2,
    });
  }
  // §10.2: «только свободные» — the same engine, reserved lots left out, compared with the naive way below
  const availableRange = { ...range, status: 'AVAILABLE' as const };
  const availableTimes: number[] = [];
  let availableText = '';
  for (let i = 0; i < 50; i++) {
    const res = await request(availableRange);
    availableText = res.text;
    availableTimes.push(res.ms);
  }
  const availableP50 = percentile(availableTimes, 50);
  rows.push({
    what: `stats via API, full range, status AVAILABLE: p50${at}`,
    value: ms(availableP50),
    budget: '≤ 30 ms',
    ok: availableP50 <= 30,
  });

  // §10.5–10.6: pace and the index of the same project; each request a different range, so that the
  // response cache never answers and every one is computed (from the timeline read once per data version)
  const post = async (url: string, body_: object) => {
    const started = performance.now();
    const res = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'accept-encoding': 'identity',
      },
      body: JSON.stringify(body_),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}: ${text.slice(0, 200)}`);
    return performance.now() - started;
  };
  const lastDay = toDay(range.to);
  for (const [label, url] of [
    ['pace', '/project/pace'],
    ['index', '/project/index'],
  ] as const) {
    const first = await post(url, range);
    const times: number[] = [];
    for (let i = 1; i <= Math.min(60, days - 1); i++)
      times.push(await post(url, { ...range, to: fromDay(lastDay - i) }));
    const p50x = percentile(times, 50);
    rows.push({ what: `${label} via API, full range: first request (timeline read)${at}`, value: ms(first) });
    rows.push({
      what: `${label} via API, 3 years, every request computed: p50${at}`,
      value: ms(p50x),
      budget: '≤ 30 ms',
      ok: p50x <= 30,
    });
  }

  await app.close();

  note('stats: наивный расчёт по журналу наблюдений…');
  const naiveTimes: number[] = [];
  let naive: StatsResponse | null = null;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    naive = await naiveStats(db, projectId, range.from, range.to, GRACE);
    naiveTimes.push(performance.now() - started);
  }
  const naiveP50 = percentile(naiveTimes, 50);
  const same = isDeepStrictEqual(JSON.parse(cold.text), JSON.parse(JSON.stringify(naive)));
  rows.push({ what: `stats naive per request (from observations): p50${at}`, value: ms(naiveP50) });
  rows.push({ what: `stats naive: p99${at}`, value: ms(percentile(naiveTimes, 99)) });
  rows.push({ what: `engine vs naive: same response${at}`, value: same ? 'yes' : 'NO', ok: same });
  const naiveAvailable = await naiveStats(db, projectId, range.from, range.to, GRACE, undefined, 'AVAILABLE');
  const sameAvailable = isDeepStrictEqual(
    JSON.parse(availableText),
    JSON.parse(JSON.stringify(naiveAvailable)),
  );
  rows.push({
    what: `engine vs naive, status AVAILABLE: same response${at}`,
    value: sameAvailable ? 'yes' : 'NO',
    ok: sameAvailable,
  });
  rows.push({
    what: `engine speed-up over naive (p50)${at}`,
    value: `${Math.round(naiveP50 / p50)}×`,
    // the budget is stated for the default project (the naive cost grows with the data, the engine's barely)
    ...(DEFAULT_STATS_SIZE
      ? { budget: '≥ 100×', ok: naiveP50 / p50 >= 100 }
      : { budget: '≥ 100× at the default size' }),
  });
}

/** A single 100,000-flat CSV snapshot through `cena-metra import`, in a child process. */
async function importBench() {
  const csv = join(work, 'big.csv');
  writeFileSync(csv, benchCsv(IMPORT_FLATS, '2026-11-20'));
  const dataDir = join(work, 'import');
  note('import: создаю базу…');
  // the CLI parts measure PGlite: DATABASE_URL (the PostgreSQL of the stats part) is not theirs
  const pglite = { DATABASE_URL: '' };
  const init = await runNode(BIN, ['--data-dir', dataDir, 'user', 'list'], work, pglite);
  rows.push({
    what: 'create an empty PGlite database (first open)',
    value: `${(init.ms / 1000).toFixed(1)} s, ${Math.round(init.peakMb)} MB peak`,
  });
  note(`import: ${IMPORT_FLATS} квартир…`);
  const run = await runNode(BIN, ['--data-dir', dataDir, '--json', 'import', csv], work, pglite);
  if (run.code !== 0) throw new Error(`import failed: ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as { статус: string; квартир: number }[];
  if (result.квартир !== IMPORT_FLATS || result.статус !== 'imported')
    throw new Error(`import: unexpected ${run.stdout}`);
  rows.push({
    what: `import ${IMPORT_FLATS.toLocaleString('en')}-flat CSV snapshot: time (whole CLI run)`,
    value: `${(run.ms / 1000).toFixed(1)} s`,
    budget: '≤ 15 s',
    ok: run.ms <= 15_000,
  });
  rows.push({
    what: `import ${IMPORT_FLATS.toLocaleString('en')}-flat CSV snapshot: peak memory (RSS)`,
    value: `${Math.round(run.peakMb)} MB`,
    budget: '≤ 600 MB',
    ok: run.peakMb <= 600,
  });
}

/**
 * `cena-metra serve` on an empty database (demo generation) and again on the same one; then the API load
 * and the browser parts against the second server. PGlite: an empty data dir; PostgreSQL: a fresh database.
 */
async function demoBench(kind: 'pglite' | 'postgresql') {
  const dataDir = join(work, `demo-${kind}`);
  const at = kind === 'pglite' ? '' : ` [${kind}]`;
  const database = kind === 'postgresql' ? await benchDatabase(PG_URL!, 'cena_bench_demo') : null;
  const start = (keep = false) =>
    new Promise<{ ms: number; url: string; pid: number; stop: () => Promise<void> }>((done, fail) => {
      const started = performance.now();
      // run as `npx cena-metra` runs it: the bin with its shebang (and its node flags)
      const child = spawn(BIN, ['--data-dir', dataDir, 'serve', '--port', '0'], {
        env: {
          ...process.env,
          LOG_LEVEL: 'silent',
          DATABASE_URL: database?.url ?? '',
          TELEGRAM_BOT_TOKEN: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdout.on('data', async (d) => {
        out += d;
        if (process.env.BENCH_DEBUG)
          note(`${(performance.now() - started).toFixed(0)} ms: ${String(d).trim()}`);
        const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0];
        if (!url || child.killed) return;
        const health = await fetch(`${url}/api/health`).catch(() => null);
        if (health?.status !== 200) return;
        const elapsed = performance.now() - started;
        const stop = () =>
          new Promise<void>((closed) => {
            child.on('close', () => closed());
            child.kill('SIGTERM');
          });
        if (keep) done({ ms: elapsed, url, pid: child.pid!, stop });
        else stop().then(() => done({ ms: elapsed, url, pid: child.pid!, stop: async () => {} }));
      });
      child.on('close', (code) => {
        if (!child.killed) fail(new Error(`serve exited with ${code}: ${err}`));
      });
    });
  try {
    note(`demo${at}: первый запуск на пустой базе…`);
    const first = (await start()).ms;
    rows.push({
      what: `serve on an empty ${kind === 'pglite' ? 'data dir' : 'database'} (demo) until /api/health answers${at}`,
      value: `${(first / 1000).toFixed(1)} s`,
      budget: '≤ 60 s',
      ok: first <= 60_000,
    });
    const again = await start(only('web') || only('api'));
    const second = again.ms;
    rows.push({
      what: `serve again on the same ${kind === 'pglite' ? 'data dir' : 'database'}${at}`,
      value: `${(second / 1000).toFixed(1)} s`,
      budget: '≤ 3 s',
      ok: second <= 3_000,
    });
    if (only('web') || only('api')) {
      // the pages are measured at once after the restart: the import kept every derived datum they read
      try {
        if (only('api')) {
          await apiLoadBench(again.url, again.pid, rows, note, at);
          await exportLoadBench(again.url, again.pid, rows, note, at);
        }
        if (only('web')) await webBench(again.url, join(ROOT, 'packages/web/dist'), rows, note, at);
      } finally {
        await again.stop();
      }
    }
  } finally {
    await database?.close();
  }
}

try {
  if (only('stats')) {
    await statsBench('pglite');
    if (PG_URL) await statsBench('postgresql');
  }
  if (only('alerts'))
    for (const kind of PG_URL ? (['pglite', 'postgresql'] as const) : (['pglite'] as const)) {
      const database = kind === 'postgresql' ? await benchDatabase(PG_URL!, 'cena_alerts') : null;
      const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: join(work, 'alerts') });
      try {
        await alertsBench(db, rows, note, kind === 'pglite' ? '' : ` [${kind}]`, {
          projects: 20,
          flats: 2000,
          watches: WATCHES,
        });
      } finally {
        await db.close();
        await database?.close();
      }
    }
  if (only('import')) await importBench();
  if (only('collect'))
    await collectBench(work, rows, note, {
      offers: COLLECT_OFFERS,
      sources: COLLECT_SOURCES,
      perSource: 300,
    });
  if (only('demo') || only('web') || only('api')) {
    await demoBench('pglite');
    if (PG_URL) await demoBench('postgresql');
  }
  printTable(rows);
  process.stdout.write(`\nnode ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  writeResults('latest.json', {
    date: new Date().toISOString(),
    node: process.version,
    argv,
    postgresql: Boolean(PG_URL),
    rows,
  });
  if (rows.some((r) => r.ok === false)) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
