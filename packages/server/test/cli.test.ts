import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_MESSAGE } from '../src/db/lock.js';

// The CLI as users run it: the built bin in a child process (npm test builds first).
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/cena-metra.js');
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');

function cli(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('cena-metra CLI', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cena-cli-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('imports the PIK scrape and prints a table, then JSON; a second import is unchanged', () => {
    const dir = join(work, 'import');
    const table = cli(
      dir,
      'import',
      '--format',
      'pik-csv',
      '--date',
      '2021-06-01',
      join(FIXTURES, 'pik-scrape'),
    );
    expect(table.stderr).not.toMatch(/ошибка/);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^застройщик\s+проект\s+дата\s+статус\s+квартир/);
    expect(lines.slice(2).every((l) => /ПИК .*2021-06-01\s+imported/.test(l))).toBe(true);

    const again = cli(
      dir,
      '--json',
      'import',
      '--format',
      'pik-csv',
      '--date',
      '2021-06-01',
      join(FIXTURES, 'pik-scrape'),
    );
    expect(again.code).toBe(0);
    const rows = JSON.parse(again.stdout) as { статус: string; квартир: number }[];
    expect(rows.length).toBe(lines.length - 2);
    expect(rows.every((r) => r.статус === 'unchanged')).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.квартир, 0)).toBe(17);
  });

  it('demo --if-empty leaves a database with projects as it is (npm start runs it on a first start)', () => {
    const dir = join(work, 'if-empty');
    expect(
      cli(dir, 'import', '--format', 'pik-csv', '--date', '2021-06-01', join(FIXTURES, 'pik-scrape')).code,
    ).toBe(0);
    const before = cli(dir, '--json', 'user', 'list');
    const run = cli(dir, 'demo', '--if-empty');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/в базе есть проекты \(\d+\): демо-данные не созданы/);
    // no demo market and no demo account
    expect(cli(dir, '--json', 'user', 'list').stdout).toBe(before.stdout);
    expect(JSON.parse(cli(dir, '--json', 'user', 'list').stdout)).toEqual([]);
  });

  it('imports a Yandex Realty feed (YRL): a snapshot per complex, the skipped offers said; --complete marks the lists whole', () => {
    const dir = join(work, 'yrl');
    const run = cli(dir, '--json', 'import', '--complete', join(FIXTURES, 'yrl', 'feed.xml'));
    expect(run.code, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as { проект: string; квартир: number; список: string }[];
    expect(rows.map((r) => [r.проект, r.квартир, r.список])).toEqual([
      ['ЖК Тестовый', 4, 'полный'],
      ['ЖК Второй', 1, 'полный'],
    ]);
    expect(run.stderr).toContain(
      'feed.xml: пропущено предложений: не продажа 1, не квартира 2, вторичное жильё 1',
    );
    const bad = cli(dir, 'import', join(FIXTURES, 'yrl', 'malformed-offer.xml'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('offer[internal-id=302] (строка 15).price');
  });

  it('imports the registry’s saved answers (--format domrf): a row per day, again nothing changes, a bad answer named', () => {
    const dir = join(work, 'domrf');
    const registry = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/data/registry');
    const run = cli(dir, '--json', 'import', '--format', 'domrf', registry);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { день: '2026-10-31', объектов: 3, изменилось: 3, отклонено: 0 },
      { день: '2026-11-26', объектов: 3, изменилось: 2, отклонено: 0 },
    ]);
    const again = cli(dir, '--json', 'import', '--format', 'domrf', registry);
    expect(JSON.parse(again.stdout).map((r: { изменилось: number }) => r.изменилось)).toEqual([0, 0]);
    const bad = join(work, '2026-12-01.list.json');
    writeFileSync(
      bad,
      JSON.stringify({
        data: {
          list: [
            { objId: 5, objReady100PercDt: '31/12/2027' },
            { objId: 6, objFloorMax: 9 },
          ],
        },
      }),
    );
    const refused = cli(dir, '--json', 'import', '--format', 'domrf', bad);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual([
      { день: '2026-12-01', объектов: 1, изменилось: 1, отклонено: 1 },
    ]);
    expect(refused.stderr).toContain('объект 5: objReady100PercDt: не дата («31/12/2027»)');
  });

  it('rejects bad input with exit code 2, naming the option or the field, and writes nothing', () => {
    const dir = join(work, 'bad');
    const format = cli(dir, 'import', '--format', 'xml', join(FIXTURES, 'pik-scrape'));
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format/);

    const date = cli(dir, 'import', '--date', '21.06.2021', join(FIXTURES, 'pik-scrape'));
    expect(date.code).toBe(2);
    expect(date.stderr).toMatch(/--date: должно быть датой в формате ГГГГ-ММ-ДД/);

    // a date of the right shape that is not in the calendar is refused too
    const feb30 = cli(dir, 'import', '--date', '2026-02-30', join(FIXTURES, 'pik-scrape'));
    expect(feb30.code).toBe(2);
    expect(feb30.stderr).toMatch(/--date: должно быть датой в формате ГГГГ-ММ-ДД \(получено «2026-02-30»\)/);
    const rebuildFrom = cli(dir, 'summary', 'build', '--from', '2026-13-01');
    expect(rebuildFrom.code).toBe(2);
    expect(rebuildFrom.stderr).toMatch(/--from/);
    // dates outside 2000-01-01 … tomorrow, as the API refuses them
    for (const [args, option] of [
      [['summary', 'build', '--from', '0000-01-01'], '--from'],
      [['summary', 'build', '--from', '9999-12-31'], '--from'],
      [['import', '--date', '9999-12-31', join(FIXTURES, 'pik-scrape')], '--date'],
    ] as const) {
      const out = cli(dir, ...args);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toMatch(new RegExp(`^ошибка: ${option}: должно быть датой от 2000-01-01 до `));
    }
    // a user name with a control character is refused, and the message does not carry it raw
    const control = cli(dir, 'user', 'add', 'bad\u0001name', '--password', 'secret-pass-1');
    expect(control.code).toBe(2);
    expect(control.stderr).toContain('bad\\u0001name');

    const missing = cli(dir, 'import', join(work, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: файл не найден/);

    const file = join(work, '2026-11-20.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          date: '2026-11-20',
          developer: 'Д',
          project: 'П',
          flats: [{ id: '1', building: '1', rooms: 1, area: 40, price: 9e6 }],
        },
        {
          date: '2026-11-21',
          developer: 'Д',
          project: 'П',
          flats: [{ id: '1', building: '1', rooms: 1, area: 'abc', price: 9e6 }],
        },
      ]),
    );
    const invalid = cli(dir, 'import', file);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/2026-11-20\.json: .*flats\[0\]\.area: должно быть положительным числом/);
    // all or nothing: the valid first snapshot was not written either, so importing it alone is new
    const ok = join(work, 'ok.json');
    writeFileSync(
      ok,
      JSON.stringify({
        date: '2026-11-20',
        developer: 'Д',
        project: 'П',
        flats: [{ id: '1', building: '1', rooms: 1, area: 40, price: 9e6 }],
      }),
    );
    const fresh = cli(dir, '--json', 'import', ok);
    expect(JSON.parse(fresh.stdout)[0].статус).toBe('imported');
  });

  it('manages users: add with a role, list, role, disable, passwd, remove; never the last admin', () => {
    const dir = join(work, 'users');
    expect(cli(dir, 'user', 'add', 'analyst', '--password', 'short').code).toBe(2);
    // the first user is the admin whatever --role says; the next one gets the role asked
    const add = cli(dir, 'user', 'add', 'analyst', '--password', 'long-enough-1', '--role', 'viewer');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/администратор/);
    expect(cli(dir, 'user', 'add', 'vic', '--password', 'long-enough-2', '--role', 'viewer').code).toBe(0);
    const badRole = cli(dir, 'user', 'add', 'x', '--password', 'long-enough-3', '--role', 'owner');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toMatch(/--role/);
    const roles = () =>
      Object.fromEntries(
        (JSON.parse(cli(dir, '--json', 'user', 'list').stdout) as Record<string, string>[]).map((u) => [
          u.имя,
          `${u.роль}${u.отключён === 'да' ? ' off' : ''}`,
        ]),
      );
    expect(roles()).toEqual({ analyst: 'admin', vic: 'viewer' });
    expect(cli(dir, 'user', 'role', 'vic', 'analyst').code).toBe(0);
    expect(cli(dir, 'user', 'disable', 'vic').code).toBe(0);
    expect(roles()).toEqual({ analyst: 'admin', vic: 'analyst off' });
    expect(cli(dir, 'user', 'enable', 'vic').code).toBe(0);
    expect(cli(dir, 'user', 'passwd', 'analyst', '--password', 'another-pass-2').code).toBe(0);
    // the last admin stays: not demoted, not disabled, not removed
    for (const args of [
      ['role', 'analyst', 'viewer'],
      ['disable', 'analyst'],
      ['remove', 'analyst'],
    ]) {
      const refused = cli(dir, 'user', ...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/последний администратор/);
    }
    expect(cli(dir, 'user', 'role', 'vic', 'admin').code).toBe(0);
    expect(cli(dir, 'user', 'remove', 'analyst').code).toBe(0);
    expect(roles()).toEqual({ vic: 'admin' });
  });

  describe('while a server holds the data dir', () => {
    const dir = () => join(work, 'served');
    let server: ChildProcess;
    beforeAll(async () => {
      server = spawn(process.execPath, [BIN, '--data-dir', dir(), 'serve', '--port', '0', '--no-demo'], {
        env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      await new Promise<void>((ready, fail) => {
        let out = '';
        server.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('http://')) ready();
        });
        server.on('exit', (code) => fail(new Error(`serve exited with ${code}`)));
      });
    }, 60_000);
    afterAll(async () => {
      const exited = new Promise((done) => server.on('exit', done));
      server.kill('SIGTERM');
      await exited;
    });

    it('another command fails with one clear line and exit code 1', () => {
      const run = cli(dir(), 'user', 'list');
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(`ошибка: ${BUSY_MESSAGE}`);
    });
  });
});
describe('cena-metra quality', () => {
  it('prints the data quality report of a project as a table or JSON; a bad number is exit 2', () => {
    const work = mkdtempSync(join(tmpdir(), 'cena-quality-'));
    try {
      const dir = join(work, 'data');
      expect(cli(dir, 'import', '--format', 'pik', join(FIXTURES, 'pik-api')).code).toBe(0);
      const table = cli(dir, 'quality', '1');
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/снимков\s+2: 2020-01-10 … 2020-01-12/);
      expect(table.stdout).toMatch(/перерывов \(больше 31 дн\.\)\s+нет/);
      const json = cli(dir, '--json', 'quality', '1');
      expect(JSON.parse(json.stdout)).toMatchObject({ projectId: 1, snapshots: { count: 2 }, gaps: [] });
      const bad = cli(dir, 'quality', 'abc');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('<project>');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
