/**
 * `npm run bench -- --stats` (issues 2, 10 and 25): stats, pace and index of a 2,000-flat project with 3
 * years of daily lists through the API against the naive computation, then each reader's first request
 * after a restart and after an import (cold.ts).
 */

import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { StatsResponse } from '@cena-metra/contract';
import { buildApp } from 'cena-metra/dist/src/app.js';
import { loadConfig } from 'cena-metra/dist/src/config.js';
import { openDb } from 'cena-metra/dist/src/db/driver.js';
import { analyzeAfterBulkLoad, migrate } from 'cena-metra/dist/src/db/migrate.js';
import { addUser } from 'cena-metra/dist/src/db/queries/users.js';
import { Importer } from 'cena-metra/dist/src/ingest/importer.js';
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';
import { coldBench } from './cold.js';
import { benchSnapshots } from './market.js';
import { benchDatabase, percentile, type Row, signIn, timedApi } from './measure.js';
import { naiveStats } from './naive.js';

export interface StatsBenchOptions {
  /** the bench's scratch directory */
  work: string;
  /** PostgreSQL of DATABASE_URL, for the [postgresql] rows */
  pgUrl?: string;
  flats: number;
  days: number;
  grace: number;
  /** the dataset is the default one (the speed-up budget is stated for it) */
  defaultSize: boolean;
  rows: Row[];
  note: (s: string) => void;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** §issue 2: stats of a 2,000-flat project with 3 years of daily snapshots, engine through the API vs naive. */
export async function statsBench(kind: 'pglite' | 'postgresql', o: StatsBenchOptions) {
  const { rows, note } = o;
  const dataDir = join(o.work, 'stats');
  let dropPg = async () => {};
  let db: Awaited<ReturnType<typeof openDb>>;
  // an empty DATABASE_URL: the server opens the data dir even when the bench runs with one set
  let env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
  if (kind === 'postgresql') {
    const database = await benchDatabase(o.pgUrl!, 'cena_bench');
    dropPg = () => database.close();
    db = await openDb({ databaseUrl: database.url });
    env = { DATABASE_URL: database.url };
  } else db = await openDb({ dataDir });
  try {
    await statsOn(db, kind, dataDir, o);
    const [{ id: projectId }] = await db.query<{ id: number }>(
      "select id from project where name = 'Большой проект'",
    );
    // the server in its own process opens the database: PGlite's data dir is one process's
    await db.close();
    await coldBench(
      {
        env,
        projectId,
        flats: o.flats,
        days: o.days,
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

async function statsOn(
  db: Awaited<ReturnType<typeof openDb>>,
  kind: string,
  dataDir: string,
  o: StatsBenchOptions,
) {
  const { rows, note } = o;
  await migrate(db);
  const days = o.days;
  const at = kind === 'pglite' ? '' : ` [${kind}]`;
  note(`stats${at}: загружаю проект ${o.flats} квартир × ${days} ежедневных снимков…`);
  const t0 = performance.now();
  await new Importer(db, o.grace).applyProjectBatch(
    'Бенчмарк',
    'Большой проект',
    benchSnapshots({ flats: o.flats, days, start: '2023-01-01', seed: 2026 }),
  );
  await analyzeAfterBulkLoad(db);
  rows.push({
    what: `load ${o.flats.toLocaleString('en')} flats × ${days} daily snapshots (one batch)${at}`,
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
  const _base = `${origin}/api`;
  const { token } = await signIn(origin, 'bench', 'bench-password');
  const range = { projectId, from: '2023-01-01', to: fromDay(toDay('2023-01-01') + days - 1) };
  const api = timedApi(origin, token);
  const request = (body_ = range as object) => api('POST', '/project/stats', body_);
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
  const post = async (url: string, body_: object) => (await api('POST', url, body_)).ms;
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
    naive = await naiveStats(db, projectId, range.from, range.to, o.grace);
    naiveTimes.push(performance.now() - started);
  }
  const naiveP50 = percentile(naiveTimes, 50);
  const same = isDeepStrictEqual(JSON.parse(cold.text), JSON.parse(JSON.stringify(naive)));
  rows.push({ what: `stats naive per request (from observations): p50${at}`, value: ms(naiveP50) });
  rows.push({ what: `stats naive: p99${at}`, value: ms(percentile(naiveTimes, 99)) });
  rows.push({ what: `engine vs naive: same response${at}`, value: same ? 'yes' : 'NO', ok: same });
  const naiveAvailable = await naiveStats(
    db,
    projectId,
    range.from,
    range.to,
    o.grace,
    undefined,
    'AVAILABLE',
  );
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
    ...(o.defaultSize
      ? { budget: '≥ 100×', ok: naiveP50 / p50 >= 100 }
      : { budget: '≥ 100× at the default size' }),
  });
}
