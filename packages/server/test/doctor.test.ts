import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_NODE, runDoctor } from '../src/cli/commands/doctor.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { MIGRATIONS } from '../src/db/migrations.js';
import { freshDb } from './databases.js';

// `cena-metra doctor` as a new user runs it: the built bin in a child process (npm test builds first).
const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(HERE, '../bin/cena-metra.js');

function doctor(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args, 'doctor'], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('cena-metra doctor', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cena-doctor-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('on a healthy setup (a migrated data dir, the web built): every check passes, exit 0', async () => {
    const dir = join(work, 'healthy');
    const db = await openDb({ dataDir: dir });
    await migrate(db);
    await db.close();
    const run = doctor({}, '--data-dir', dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^✓ Node.js: ${process.versions.node.replaceAll('.', '\\.')} `, 'm'),
    );
    expect(run.stdout).toContain(`✓ база (PGlite): ${dir}`);
    expect(run.stdout).toContain(`✓ миграции: все ${MIGRATIONS.length} применены`);
    expect(run.stdout).toMatch(/^✓ веб-приложение: собрано: /m);
    expect(run.stdout).toMatch(/^✓ свободное место: [\d.]+ ГБ/m);
    expect(run.stdout).toMatch(/всё в порядке\n$/);
    expect(run.stdout).not.toMatch(/[✗!] /);
  });

  it('an empty data dir is not created by the check: it says the first start will make it', () => {
    const dir = join(work, 'not-yet');
    const run = doctor({}, '--data-dir', dir, '--json');
    expect(run.code).toBe(0);
    const checks = JSON.parse(run.stdout) as { what: string; state: string; found: string }[];
    expect(checks.find((c) => c.what === 'база (PGlite)')).toMatchObject({
      state: 'ok',
      found: expect.stringContaining('ещё не создана'),
    });
    expect(() => readFileSync(join(dir, 'PG_VERSION'))).toThrow();
  });

  it('an unreachable DATABASE_URL: the check fails with what to do, the password hidden, exit 1', () => {
    const run = doctor({ DATABASE_URL: 'postgresql://analyst:secret@127.0.0.1:1/cena' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^✗ база \(DATABASE_URL\): postgresql:\/\/analyst:\*\*\*@127\.0\.0\.1:1\/cena недоступна: /m,
    );
    expect(run.stdout).toMatch(/что сделать: проверьте, что PostgreSQL запущен/);
    expect(run.stdout).not.toContain('secret');
    expect(run.stderr).toBe('ошибка: проверок не пройдено: 1\n');
  });

  it('a reachable PostgreSQL with a migration pending: a warning saying the next start applies it, exit 0', async () => {
    const { url, drop } = await freshDb('postgresql', MIGRATIONS.at(-1)!.id - 1);
    try {
      const run = doctor({ DATABASE_URL: url! });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^✓ база \(DATABASE_URL\): PostgreSQL \d+/m);
      expect(run.stdout).toContain(`! миграции: применено ${MIGRATIONS.length - 1} из ${MIGRATIONS.length}`);
      expect(run.stdout).toContain(
        `остальные (${MIGRATIONS.at(-1)!.id}) применятся при следующем запуске сервера`,
      );
    } finally {
      await drop();
    }
  });

  it('a missing web build and an old Node fail with what to do', async () => {
    const config = loadConfig({ dataDir: join(work, 'not-yet') }, {});
    const checks = await runDoctor(config, { webRoot: undefined, nodeVersion: '18.20.4' });
    expect(checks.find((c) => c.what === 'веб-приложение')).toMatchObject({
      state: 'fail',
      todo: expect.stringContaining('npm run build'),
    });
    expect(checks.find((c) => c.what === 'Node.js')).toMatchObject({
      state: 'fail',
      todo: expect.stringContaining('20.19'),
    });
    expect(
      (await runDoctor(config, { webRoot: '/x', nodeVersion: '20.19.0' })).find((c) => c.what === 'Node.js')
        ?.state,
    ).toBe('ok');
    expect(
      (await runDoctor(config, { webRoot: '/x', nodeVersion: '20.18.3' })).find((c) => c.what === 'Node.js')
        ?.state,
    ).toBe('fail');
    // the same minimum as package.json's engines
    const engines = JSON.parse(readFileSync(resolve(HERE, '../../../package.json'), 'utf8')).engines.node;
    expect(engines).toBe(`>=${MIN_NODE.replace(/\.0$/, '')}`);
  });
});
