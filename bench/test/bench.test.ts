/**
 * The benchmark tools themselves, on tiny datasets (their figures are `npm run bench` and
 * `npm run bench:scale`'s business, not the suite's): they run to the end on PGlite and PostgreSQL,
 * print their table, judge budgets, write their JSON and drop the databases they made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const url = process.env.TEST_DATABASE_URL;
const results = mkdtempSync(join(tmpdir(), 'cena-bench-test-'));

interface Row {
  what: string;
  value: string;
  budget?: string;
  ok?: boolean;
}

const runTool = (script: string, args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'bench/dist', script), ...args], {
    env: { ...process.env, BENCH_RESULTS_DIR: results, ...env },
    encoding: 'utf8',
    timeout: 240_000,
  });

/**
 * Runs a bench tool to its end (exit 0: no budget missed; 1 only for times over their budgets), checks it
 * left no database of `prefix` behind, and reads the JSON report it wrote.
 */
async function bench<T>(
  script: string,
  args: string[],
  env: Record<string, string>,
  prefix: string,
  report: string,
  /** the report the previous run left, if any */
  previous?: object,
) {
  const before = await databases(prefix);
  rmSync(join(results, report), { force: true });
  if (previous) writeFileSync(join(results, report), JSON.stringify(previous));
  const run = runTool(script, args, env);
  expect([0, 1], run.stderr).toContain(run.status);
  expect(await databases(prefix)).toEqual(before);
  const parsed = JSON.parse(readFileSync(join(results, report), 'utf8')) as T & { rows: Row[] };
  // a time over its budget on a machine busy with the other test files is not this test's business (the
  // budgets are judged by `npm run bench` alone); anything else missed is, and so is any other failure
  const missed = parsed.rows.filter((r) => r.ok === false);
  const timing = (r: Row) => /\d (ms|s)$/.test(r.budget ?? '');
  expect(
    missed.filter((r) => !timing(r)).map((r) => `${r.what}: ${r.value}`),
    run.stderr,
  ).toEqual([]);
  expect(run.status, run.stderr).toBe(missed.length ? 1 : 0);
  return { stdout: run.stdout, report: parsed };
}

async function databases(prefix: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const rows = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${prefix}%`],
    );
    return rows.rows.map((r) => r.datname).sort();
  } finally {
    await admin.end();
  }
}

describe('bench tools (tiny datasets)', () => {
  beforeAll(() => {
    if (!url) throw new Error('TEST_DATABASE_URL is not set: the bench tools run on PostgreSQL too');
    const build = spawnSync('npm', ['run', 'build', '-w', 'bench'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  });
  afterAll(() => rmSync(results, { recursive: true, force: true }));

  it('npm run bench --stats: engine vs naive on PGlite and PostgreSQL, one table beside the previous run, latest-stats.json', async () => {
    // a previous run's report, as the last run left it: its figures are printed beside this run's
    const previous = {
      date: '2026-11-20T10:00:00.000Z',
      commit: 'abcdef1234',
      machine: '2 × earlier',
      rows: [
        { what: 'stats via API, full range: p50', value: '0.001 ms', budget: '≤ 30 ms', ok: true },
        { what: 'engine vs naive: same response', value: 'yes', ok: true },
      ],
    };
    const { stdout, report } = await bench<{
      postgresql: boolean;
      commit: string;
      machine: string;
      previous: { commit: string };
    }>(
      'run.js',
      ['--stats', '--flats', '60', '--days', '40'],
      { DATABASE_URL: url! },
      'cena_bench_',
      'latest-stats.json',
      previous,
    );
    // where and on which code it ran, the previous run named, its figures beside this run's, worse marked
    expect(stdout).toMatch(/^commit [0-9a-f]{10}\+? · \d+ × .+, \d+ GiB/);
    expect(stdout).toContain('previous run: 2026-11-20 10:00 · commit abcdef1234 · 2 × earlier');
    expect(stdout).toMatch(/^measure\s+value\s+previous run\s+budget/m);
    expect(stdout).toMatch(/^stats via API, full range: p50 +[\d.]+ ms +0\.001 ms \(\+\d+ % ▲\)/m);
    expect(stdout).toMatch(/^engine vs naive: same response +yes +yes /m);
    expect(stdout).toMatch(/▲ slower than the previous run by over 10 %: \d+/);
    expect(report).toMatchObject({ previous: { commit: 'abcdef1234' } });
    expect(report.commit).toMatch(/^[0-9a-f]{10}\+?$/);
    expect(report.machine).toMatch(/^\d+ × /);
    expect(report.postgresql).toBe(true);
    const row = (what: string) => report.rows.find((r) => r.what === what);
    for (const at of ['', ' [postgresql]']) {
      expect(row(`engine vs naive: same response${at}`)).toMatchObject({ value: 'yes', ok: true });
      expect(row(`stats via API, full range: p50${at}`)?.budget).toBe('≤ 30 ms');
      // the speed-up is judged at the default size only
      expect(row(`engine speed-up over naive (p50)${at}`)?.budget).toBe('≥ 100× at the default size');
    }
    expect(report.rows.some((r) => r.ok === false)).toBe(false);
  }, 240_000);

  it('npm run bench --collect: a feed and a market of sources collected from loopback, judged', async () => {
    const { report } = await bench<{ postgresql: boolean }>(
      'run.js',
      ['--collect', '--collect-offers', '400', '--collect-sources', '3'],
      {},
      'cena_bench_',
      'latest-collect.json',
    );
    const what = report.rows.map((r) => r.what);
    expect(what.some((w) => w.startsWith('collect + import a 400-offer YRL feed'))).toBe(true);
    const market = report.rows.find((r) => r.what.startsWith("one day's collection of 3 sources"));
    expect(market?.value).toContain('3/3 done');
    expect(report.rows.every((r) => r.ok !== false)).toBe(true);
  }, 240_000);

  it('npm run bench:scale: loads a market in a child, serves it from its own process, judges the budgets', async () => {
    const { report } = await bench<{ projects: number; days: number }>(
      'scale.js',
      ['--projects', '3', '--flats', '40', '--days', '30'],
      { TEST_DATABASE_URL: url! },
      'cena_scale_',
      'scale-latest.json',
    );
    expect(report).toMatchObject({ projects: 3, days: 30 });
    const load = report.rows.find((r) => r.what.startsWith('history: 3 projects × 30 daily lists'));
    // about 40 lots a project on sale (sold ones are replaced, a few flicker), 3 projects
    const onSale = Number(/; (\d+) lots on sale/.exec(load?.value ?? '')?.[1]);
    expect(onSale).toBeGreaterThanOrEqual(110);
    expect(onSale).toBeLessThanOrEqual(130);
    expect(report.rows.find((r) => r.what.startsWith('database size'))?.value).toMatch(/GB \/ [\d.]+ GB$/);
    const day = report.rows.find((r) =>
      r.what.startsWith('one day of the whole market (3 lists, generated beforehand)'),
    );
    expect(day).toMatchObject({ budget: '≤ 15 min', ok: true });
    expect(report.rows.find((r) => r.what === 'stats, whole year: p50 of the slowest project')).toMatchObject(
      {
        ok: true,
      },
    );
    expect(
      report.rows.find((r) =>
        r.what.startsWith('«Рынок» (3 projects ranked, 90 days): first request after the day'),
      ),
    ).toMatchObject({ ok: true });
    // «Рынок»'s pace: the whole market first, then other periods as slices of the held span
    for (const what of [
      "«Рынок»'s pace of the whole market (3 projects): first request of a fresh server",
      "«Рынок»'s pace, 20 other periods: p50 after the day",
    ])
      expect(
        report.rows.find((r) => r.what.startsWith(what)),
        what,
      ).toMatchObject({ ok: true });
    // the market's kept spans: every one made after the load (the whole market × 10 filters), each ≤ 1 s
    expect(
      report.rows.find((r) => r.what.startsWith("the market's kept spans after the load: a round"))?.what,
    ).toContain('(10 of 10 scopes × filters made,');
    for (const when of ['after the load', 'after the day'])
      expect(
        report.rows.find((r) => r.what.startsWith(`the market's kept spans ${when}: the slowest span`)),
        when,
      ).toMatchObject({ budget: '≤ 1,000 ms', ok: true });
    expect(
      report.rows.find((r) => r.what.startsWith('server RSS after opening 3 different projects')),
    ).toMatchObject({ ok: true });
  }, 240_000);

  it('npm run test:load: serve on a fresh PostgreSQL database, clients and an importer, judged, dropped', async () => {
    const { report } = await bench<{ connections: number; seconds: number }>(
      'load.js',
      ['--connections', '4', '--seconds', '3'],
      { TEST_DATABASE_URL: url! },
      'cena_load_',
      'load-latest.json',
    );
    expect(report).toMatchObject({ connections: 4, seconds: 3 });
    const row = (what: string) => report.rows.find((r) => r.what.startsWith(what));
    expect(row('errors')).toMatchObject({ value: '0', ok: true });
    expect(row('latency p99')).toMatchObject({ budget: '≤ 250 ms' });
    expect(row('snapshots imported meanwhile')?.value).toMatch(/^[1-9]\d* \(0 failed\)$/);
    expect(Number(/^(\d+)/.exec(row('requests')?.value ?? '')?.[1])).toBeGreaterThan(100);
  }, 240_000);

  it('a bench tool refuses a bad option with one clear line and exit code 2, creating nothing', async () => {
    const before = await databases('cena_scale_');
    const run = runTool('scale.js', ['--projects', 'двести'], { TEST_DATABASE_URL: url! });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('ошибка: --projects: ожидается целое число больше 0, получено «двести»');
    expect(await databases('cena_scale_')).toEqual(before);
    const zero = runTool('run.js', ['--stats', '--flats', '0'], {});
    expect(zero.status).toBe(2);
    expect(zero.stderr.trim()).toBe('ошибка: --flats: ожидается целое число больше 0, получено «0»');
  });
});
