import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from 'cena-metra/dist/src/db/driver.js';
import { alertsBench } from './alerts.js';
import { apiLoadBench, exportLoadBench } from './api-load.js';
import { collectBench } from './collect.js';
import { benchCsv } from './market.js';
import { BIN, benchDatabase, numberOption, type Row, reportRun, runNode } from './measure.js';
import { npmStartBench } from './npm-start.js';
import { statsBench } from './stats.js';
import { webBench } from './web.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const GRACE = 2;

const argv = process.argv.slice(2);
const args = new Set(argv);
const PARTS = ['stats', 'import', 'demo', 'web', 'api', 'collect', 'alerts'];
const only = (part: string) => !PARTS.some((p) => args.has(`--${p}`)) || args.has(`--${part}`);
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
const _ms = (x: number) => `${x.toFixed(1)} ms`;

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
    const options = {
      work,
      pgUrl: PG_URL,
      flats: STATS_FLATS,
      days: STATS_DAYS,
      grace: GRACE,
      defaultSize: DEFAULT_STATS_SIZE,
      rows,
      note,
    };
    await statsBench('pglite', options);
    if (PG_URL) await statsBench('postgresql', options);
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
  if (only('demo')) await npmStartBench(ROOT, work, rows, note);
  if (only('demo') || only('web') || only('api')) {
    await demoBench('pglite');
    if (PG_URL) await demoBench('postgresql');
  }
  // a run of some parts is compared with the last run of the same parts
  const parts = PARTS.filter((p) => args.has(`--${p}`));
  reportRun(parts.length ? `latest-${parts.join('-')}.json` : 'latest.json', rows, {
    argv,
    postgresql: Boolean(PG_URL),
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
