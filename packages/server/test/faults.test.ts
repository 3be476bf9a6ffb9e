import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../src/db/driver.js';
import { freshDb } from './databases.js';

const BIN = join(import.meta.dirname, '../bin/cena-metra.js');
const PG_BIN = '/usr/lib/postgresql/15/bin';
const havePostgres = existsSync(join(PG_BIN, 'pg_ctl'));
const pgKinds =
  process.env.TEST_DATABASE_URL || process.env.CI
    ? (['pglite', 'postgresql'] as const)
    : (['pglite'] as const);

/** An NDJSON file of one project's daily snapshots: `flats` flats, every tenth price moving each day. */
function writeMarket(path: string, days: number, flats: number): void {
  const lines: string[] = [];
  for (let d = 0; d < days; d++) {
    const date = new Date(Date.UTC(2026, 9, 1 + d)).toISOString().slice(0, 10);
    const rows = Array.from({ length: flats }, (_, i) => ({
      id: `f${i}`,
      building: String(1 + (i % 5)),
      rooms: i % 4,
      area: 30 + (i % 60),
      floor: 1 + (i % 20),
      price: 5_000_000 + i * 1000 + (i % 10 === d % 10 ? d * 10_000 : 0),
      finish: 'без отделки',
    }));
    lines.push(JSON.stringify({ date, developer: 'Сбой', project: 'Прерванный импорт', flats: rows }));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

function run(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.on('exit', (code) => done(code)));
}

/**
 * Per snapshot of the project: the flats its row says it holds, the flats listed on its date as rebuilt
 * from the observations, and the observations and events written for that date (the same set of flats).
 */
async function snapshotSizes(where: Db | string) {
  // a data dir is opened for the question and closed again (the CLI needs it next)
  const db = typeof where === 'string' ? await openDb({ dataDir: where }) : where;
  try {
    return await querySizes(db);
  } finally {
    if (typeof where === 'string') await db.close();
  }
}

function querySizes(db: Db) {
  return db.query<{ date: string; count: number; listed: number; changed: number; events: number }>(
    `select s.date::text as date, s.flats_count as count,
       (select count(*) from (select distinct on (o.flat_id) o.present from flat_observation o
          where o.project_id = s.project_id and o.snapshot_date <= s.date
          order by o.flat_id, o.snapshot_date desc) x where x.present)::int as listed,
       (select count(*) from flat_observation o where o.project_id = s.project_id and o.snapshot_date = s.date)::int as changed,
       (select count(*) from flat_event e where e.project_id = s.project_id and e.day = s.date)::int as events
     from snapshot s order by s.date`,
  );
}

/** Every snapshot whole: all its flats listed, and as many events as flats whose record changed. */
function expectWhole(sizes: Awaited<ReturnType<typeof querySizes>>, flats: number) {
  for (const [i, s] of sizes.entries()) {
    expect(s.count, s.date).toBe(flats);
    expect(s.listed, s.date).toBe(flats);
    // the first snapshot writes every flat and has no events; later ones as many events as changes
    expect(s.events, s.date).toBe(i === 0 ? 0 : s.changed);
    expect(s.changed, s.date).toBeGreaterThan(0);
  }
}

describe('kill -9 in the middle of an import', () => {
  for (const kind of pgKinds) {
    it(`leaves the database as before the batch (all or nothing), and the import run again completes [${kind}]`, async () => {
      const work = mkdtempSync(join(tmpdir(), 'cena-kill-'));
      const file = join(work, 'market.ndjson');
      const DAYS = 30;
      const FLATS = 3000;
      writeMarket(file, DAYS, FLATS);
      const fresh = kind === 'postgresql' ? await freshDb('postgresql') : null;
      const where = fresh
        ? { env: { DATABASE_URL: fresh.url! }, args: [] }
        : { env: { DATABASE_URL: '' }, args: ['--data-dir', join(work, 'data')] };
      try {
        const child = spawn(process.execPath, [BIN, ...where.args, 'import', file], {
          env: { ...process.env, ...where.env, LOG_LEVEL: 'silent' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const code = exited(child);
        // kill once the batch is being applied (the first progress line: a snapshot applied)
        await new Promise<void>((done) =>
          child.stderr!.on('data', (d) => String(d).includes('импорт:') && done()),
        );
        child.kill('SIGKILL');
        expect(await code).toBeNull();

        // the batch is one transaction: nothing of it is stored (DESIGN §3.3)
        const sizes = await snapshotSizes(fresh?.db ?? join(work, 'data'));
        expect(sizes).toHaveLength(0);

        const again = run([...where.args, '--json', 'import', file], where.env);
        expect(again.status, again.stderr).toBe(0);
        const results = JSON.parse(again.stdout) as { статус: string }[];
        expect(results).toHaveLength(DAYS);
        const statuses = results.map((r) => r.статус);
        expect(statuses.filter((s) => s === 'imported')).toHaveLength(DAYS - sizes.length);

        const all = await snapshotSizes(fresh?.db ?? join(work, 'data'));
        expect(all).toHaveLength(DAYS);
        expectWhole(all, FLATS);
      } finally {
        await fresh?.drop();
        rmSync(work, { recursive: true, force: true });
      }
    }, 180_000);
  }
});

describe.runIf(pgKinds.includes('postgresql' as never))(
  'two importers of the same snapshots at once (PostgreSQL)',
  () => {
    it('give one result: each snapshot imported once, the other run finds it already there', async () => {
      const work = mkdtempSync(join(tmpdir(), 'cena-twice-'));
      const file = join(work, 'market.ndjson');
      writeMarket(file, 5, 2000);
      const fresh = await freshDb('postgresql');
      try {
        const env = { ...process.env, DATABASE_URL: fresh.url!, LOG_LEVEL: 'silent' };
        const start = () => {
          const child = spawn(process.execPath, [BIN, '--json', 'import', file], {
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout!.on('data', (d) => (out += d));
          child.stderr!.on('data', (d) => (err += d));
          return exited(child).then((code) => ({ code, out, err }));
        };
        const [a, b] = await Promise.all([start(), start()]);
        expect(a.code, a.err).toBe(0);
        expect(b.code, b.err).toBe(0);
        const statuses = [...JSON.parse(a.out), ...JSON.parse(b.out)].map(
          (r: { дата: string; статус: string }) => `${r.дата} ${r.статус}`,
        );
        for (let d = 1; d <= 5; d++) {
          const date = `2026-10-0${d}`;
          expect(
            statuses.filter((s) => s === `${date} imported`),
            statuses.join(', '),
          ).toHaveLength(1);
        }
        const sizes = await snapshotSizes(fresh.db);
        expect(sizes).toHaveLength(5);
        expectWhole(sizes, 2000);
      } finally {
        await fresh.drop();
        rmSync(work, { recursive: true, force: true });
      }
    }, 120_000);
  },
);

describe.runIf(havePostgres && (process.getuid?.() === 0 || process.env.CI))(
  'PostgreSQL restarted while the server runs',
  () => {
    const work = mkdtempSync(join(tmpdir(), 'cena-pgrestart-'));
    const cluster = join(work, 'cluster');
    const port = 5400 + Math.floor(Math.random() * 90);
    const asPostgres = (cmd: string, args: string[]) =>
      execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, cmd), ...args], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    const pgCtl = (action: string) =>
      asPostgres('pg_ctl', [
        '-D',
        cluster,
        '-w',
        '-t',
        '30',
        '-o',
        `-p ${port} -k ${work} -c listen_addresses=''`,
        '-l',
        join(work, 'pg.log'),
        action,
      ]);
    const url = `postgresql://postgres@localhost/cena?host=${encodeURIComponent(work)}&port=${port}`;
    let server: ChildProcess | null = null;

    beforeAll(async () => {
      chmodSync(work, 0o777);
      asPostgres('initdb', ['-D', cluster, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
      pgCtl('start');
      const admin = new pg.Client({ host: work, port, user: 'postgres', database: 'postgres' });
      await admin.connect();
      await admin.query('create database cena');
      await admin.end();
    }, 60_000);
    afterAll(() => {
      server?.kill('SIGKILL');
      try {
        pgCtl('stop');
      } catch {}
      rmSync(work, { recursive: true, force: true });
    });

    it('answers 503 during the outage and 200 after it, without a restart of the server', async () => {
      const env = { DATABASE_URL: url };
      const add = run(['user', 'add', 'analyst', '--password', 'secret-pass-1'], env);
      expect(add.status, add.stderr).toBe(0);
      server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-demo'], {
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const base = await new Promise<string>((done) => {
        let out = '';
        server!.stdout!.on('data', (d) => {
          out += d;
          const m = /http:\/\/[\d.]+:\d+/.exec(out);
          if (m) done(m[0]);
        });
      });
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'analyst', password: 'secret-pass-1' }),
      });
      const { token } = (await login.json()) as { token: string };
      const get = (path: string) =>
        fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await get('/developers')).status).toBe(200);
      const until = async (status: number, path: string) => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const res = await get(path);
          if (res.status === status) return res;
          if (Date.now() > deadline) throw new Error(`${path}: still ${res.status}, expected ${status}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      };

      pgCtl('stop');
      const down = await until(503, '/developers');
      expect(await down.json()).toEqual({
        message: 'база данных недоступна, повторите запрос через несколько секунд',
        code: 'SERVICE_UNAVAILABLE',
      });
      expect(down.headers.get('retry-after')).toBe('5');
      expect((await until(503, '/health')).status).toBe(503);

      pgCtl('start');
      expect((await until(200, '/developers')).status).toBe(200);
      expect((await until(200, '/health')).status).toBe(200);
      expect(server.exitCode).toBeNull();
    }, 120_000);
  },
);

const asRoot = process.getuid?.() === 0;

describe.runIf(asRoot)('a full disk and a read-only data dir (PGlite)', () => {
  it('a full disk stops the import with a clear error, nothing of the batch is stored, and the import completes with space', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cena-full-'));
    const mnt = join(work, 'disk');
    const data = join(mnt, 'data');
    const file = join(work, 'market.ndjson');
    writeMarket(file, 40, 3000);
    execFileSync('mkdir', ['-p', mnt]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=70m', 'tmpfs', mnt]);
    try {
      expect(
        run(['--data-dir', data, 'user', 'add', 'analyst', '--password', 'secret-pass-1'], {}).status,
      ).toBe(0);
      const full = run(['--data-dir', data, 'import', file], {});
      expect(full.status).toBe(1);
      expect(full.stderr).toContain('ошибка: на диске нет места: запись не выполнена, база цела');
      // another file takes the rest of the disk: the database is not even opened, and it says why
      spawnSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=1M']);
      const list = run(['--data-dir', data, 'user', 'list'], {});
      expect(list.status).toBe(1);
      expect(list.stderr).toMatch(/^ошибка: на диске нет места: /);
      expect(list.stderr).toContain(data);

      rmSync(join(mnt, 'filler'));
      execFileSync('mount', ['-o', 'remount,size=400m', mnt]);
      // the batch is one transaction: the disk filled up in its middle, and nothing of it is stored
      const sizes = await snapshotSizes(data);
      expect(sizes).toHaveLength(0);
      const again = run(['--data-dir', data, 'import', file], {});
      expect(again.status, again.stderr).toBe(0);
      const all = await snapshotSizes(data);
      expect(all).toHaveLength(40);
      expectWhole(all, 3000);
    } finally {
      execFileSync('umount', [mnt]);
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);

  it('a data dir the process may not write to: a clear error, the database untouched', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cena-ro-'));
    const data = join(work, 'data');
    const file = join(work, 'market.ndjson');
    writeMarket(file, 3, 100);
    try {
      expect(run(['--data-dir', data, 'import', file], {}).status).toBe(0);
      writeMarket(file, 6, 100);
      chmodSync(work, 0o755);
      chmodSync(file, 0o644);
      // the owner is root; `nobody` may read the files but not write them
      const ro = spawnSync(
        'runuser',
        ['-u', 'nobody', '--', process.execPath, BIN, '--data-dir', data, 'import', file],
        {
          encoding: 'utf8',
          env: { ...process.env, LOG_LEVEL: 'silent', HOME: work },
        },
      );
      expect(ro.status).toBe(1);
      expect(ro.stderr.trim()).toBe(
        `ошибка: папка данных ${data} недоступна для записи (нет прав): база не открыта`,
      );
      const sizes = await snapshotSizes(data);
      expect(sizes).toHaveLength(3);
      expectWhole(sizes, 100);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
