/**
 * `npm run test:load` (issue 7 item 3): 50 concurrent clients for 60 s on the main read endpoints of a
 * `cena-metra serve` on PostgreSQL, while one importer posts a snapshot every second. Loopback only.
 * Passes with zero errors, p99 ≤ 250 ms and the server's memory flat (the last quarter's RSS within 15 %
 * of the second quarter's). Database: a fresh one created on the server of DATABASE_URL or
 * TEST_DATABASE_URL (dropped afterwards); the demo market is generated into it by the first start.
 * Options: --connections N, --seconds N, --no-import; LOAD_DATABASE_URL runs on an existing database
 * (kept) instead of a fresh one.
 */
import type { Project } from '@cena-metra/contract';
import autocannon from 'autocannon';
import { benchDatabase, numberOption, type Row, reportRun, rssMb, signIn, startServer } from './measure.js';

const CONNECTIONS = numberOption(process.argv, 'connections', 50);
const SECONDS = numberOption(process.argv, 'seconds', 60);
const P99_BUDGET = 250;
const note = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  const existing = process.env.LOAD_DATABASE_URL;
  const base = existing || process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('test:load runs on PostgreSQL: set DATABASE_URL or TEST_DATABASE_URL');
  const database = await benchDatabase(base, 'cena_load', Boolean(existing));
  const { name, url } = database;
  let server: ReturnType<typeof startServer> | null = null;
  const rows: Row[] = [];
  try {
    note(`load: ${name}: первый запуск генерирует демо-данные…`);
    server = startServer({ DATABASE_URL: url });
    const origin = await server.origin;
    const { token } = await signIn(origin);
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'accept-encoding': 'gzip',
    };
    const get = async <T>(path: string) =>
      (await (await fetch(`${origin}/api${path}`, { headers })).json()) as T;

    // what analysts open: every project's stats and discounts, summaries, price changes, flat cards
    const developers = await get<{ id: number }[]>('/developers');
    const projects = (
      await Promise.all(
        developers.map(async (d) =>
          (await get<Project[]>(`/projects?developerId=${d.id}`)).map((p) => ({ ...p, developerId: d.id })),
        ),
      )
    ).flat();
    const [summary] = await get<{ id: number; date: string }[]>('/summaries?limit=1');
    const today = summary!.date;
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
    const requests: autocannon.Request[] = [
      { method: 'GET', path: '/api/developers' },
      { method: 'GET', path: '/api/summaries?limit=10' },
      { method: 'GET', path: `/api/summary/${summary!.id}` },
      { method: 'GET', path: `/api/price-changes?from=${from}&to=${today}&pageSize=50` },
      { method: 'GET', path: '/api/flat?flatId=1' },
      ...projects.flatMap((p): autocannon.Request[] => [
        { method: 'GET', path: `/api/projects?developerId=${p.developerId}` },
        {
          method: 'POST',
          path: '/api/project/stats',
          body: JSON.stringify({ projectId: p.id, from, to: today }),
        },
        {
          method: 'POST',
          path: '/api/discount/project',
          body: JSON.stringify({ period: 'MONTH', projectId: p.id }),
        },
      ]),
    ];
    // warm the caches as a day of use would; the slowest cold request says whether the planner has statistics
    const warmStarted = performance.now();
    let slowest = { ms: 0, path: '' };
    for (const r of requests) {
      const started = performance.now();
      await fetch(`${origin}${r.path}`, { method: r.method, headers, body: r.body as string | undefined });
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, path: `${r.method} ${r.path}` };
    }
    rows.push({
      what: `first pass over the ${requests.length} requests (cold caches)`,
      value: `${((performance.now() - warmStarted) / 1000).toFixed(1)} s, slowest ${Math.round(slowest.ms)} ms (${slowest.path})`,
    });

    // one importer: a new day of a project of its own every second
    let imported = 0;
    let importErrors = 0;
    let importing = !process.argv.includes('--no-import');
    const importer = (async () => {
      for (let day = 0; importing; day++) {
        const date = new Date(Date.parse('2025-01-01T00:00:00Z') + day * 86_400_000)
          .toISOString()
          .slice(0, 10);
        const flats = Array.from({ length: 500 }, (_, i) => ({
          id: `load-${i}`,
          building: String(1 + (i % 4)),
          rooms: i % 4,
          area: 30 + (i % 50),
          price: 8_000_000 + i * 5000 - (i % 7 === day % 7 ? 100_000 : 0),
          finish: 'без отделки',
        }));
        const res = await fetch(`${origin}/api/ingest/snapshots`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ date, developer: 'Нагрузка', project: 'Импорт под нагрузкой', flats }),
        });
        if (res.status === 200) imported++;
        else importErrors++;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();

    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(server!.pid)), 1000);
    note(
      `load: ${CONNECTIONS} клиентов × ${SECONDS} с, ${requests.length} разных запросов, импорт каждую секунду…`,
    );
    const result = await new Promise<autocannon.Result>((done, fail) =>
      autocannon(
        { url: origin, connections: CONNECTIONS, duration: SECONDS, headers, requests },
        (error, r) => (error ? fail(error) : done(r)),
      ),
    );
    clearInterval(sampler);
    importing = false;
    await importer;

    const errors = result.errors + result.timeouts + result.non2xx;
    const quarter = Math.max(1, Math.floor(samples.length / 4));
    const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const early = avg(samples.slice(quarter, 2 * quarter));
    const late = avg(samples.slice(-quarter));
    const growth = (late - early) / early;
    rows.push(
      {
        what: `requests (${CONNECTIONS} connections, ${SECONDS} s)`,
        value: `${result.requests.total} (${Math.round(result.requests.average)} req/s)`,
      },
      {
        what: 'errors (non-2xx, socket errors, timeouts)',
        value: String(errors),
        budget: '0',
        ok: errors === 0,
      },
      { what: 'latency p50', value: `${result.latency.p50} ms` },
      {
        what: 'latency p99',
        value: `${result.latency.p99} ms`,
        budget: `≤ ${P99_BUDGET} ms`,
        ok: result.latency.p99 <= P99_BUDGET,
      },
      { what: 'latency max', value: `${result.latency.max} ms` },
      {
        what: 'snapshots imported meanwhile',
        value: `${imported} (${importErrors} failed)`,
        budget: '0 failed',
        ok: importErrors === 0 && imported > 0,
      },
      {
        what: 'server RSS: 2nd quarter → last quarter',
        value: `${Math.round(early)} → ${Math.round(late)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %)`,
        budget: '≤ +15 %',
        ok: growth <= 0.15,
      },
    );
    reportRun('load-latest.json', rows, { connections: CONNECTIONS, seconds: SECONDS });
  } finally {
    await server?.stop();
    await database.close();
  }
}

await main();
