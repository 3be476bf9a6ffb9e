import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without types
import { buildPlan, firstStart, markBuilt } from './build.mjs';

type Planned = { name: string; stale: boolean };

describe('npm start builds only what changed', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const stale = () => (buildPlan(root) as Planned[]).filter((p) => p.stale).map((p) => p.name);
  /** what a build leaves: each package's output with the hash it was built from */
  const buildAll = () => {
    for (const p of buildPlan(root)) {
      mkdirSync(join(root, p.dir, 'dist'), { recursive: true });
      markBuilt(root, p);
    }
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cm-build-'));
    write('tsconfig.base.json', '{}');
    write('package-lock.json', '{"v":1}');
    write('packages/contract/src/index.ts', 'export const a = 1;');
    write('packages/contract/package.json', '{}');
    write('packages/server/src/app.ts', 'export const b = 2;');
    write('packages/server/test/app.test.ts', 'test');
    write('packages/server/src/app.test.ts', 'test');
    write('packages/web/src/main.tsx', 'export const c = 3;');
    write('packages/web/index.html', '<html></html>');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds everything the first time, and nothing on an unchanged tree', () => {
    expect(stale()).toEqual(['contract', 'server', 'web']);
    buildAll();
    expect(stale()).toEqual([]);
  });

  it('a changed file in a package builds that package (and, for the contract, those built against it)', () => {
    buildAll();
    write('packages/server/src/app.ts', 'export const b = 3;');
    expect(stale()).toEqual(['server']);
    buildAll();
    write('packages/web/index.html', '<html lang="ru"></html>');
    expect(stale()).toEqual(['web']);
    buildAll();
    write('packages/web/src/new-page.tsx', 'export {};');
    expect(stale()).toEqual(['web']);
    buildAll();
    write('packages/contract/src/index.ts', 'export const a = 2;');
    expect(stale()).toEqual(['contract', 'server', 'web']);
  });

  it('tests are not inputs; the lock file and the shared compiler settings are', () => {
    buildAll();
    write('packages/server/test/app.test.ts', 'changed');
    write('packages/server/src/app.test.ts', 'changed');
    expect(stale()).toEqual([]);
    write('package-lock.json', '{"v":2}');
    expect(stale()).toEqual(['contract', 'server', 'web']);
    buildAll();
    write('tsconfig.base.json', '{"strict":true}');
    expect(stale()).toEqual(['contract', 'server', 'web']);
  });

  it('a package whose output is gone is built again', () => {
    buildAll();
    rmSync(join(root, 'packages/web/dist'), { recursive: true });
    expect(stale()).toEqual(['web']);
  });

  it('an unknown package name is refused with the names there are, exit 2, nothing built', () => {
    const run = spawnSync(process.execPath, [join(__dirname, 'build.mjs'), 'servre'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('сборка: неизвестный пакет servre; есть contract, server, web\n');
    expect(run.stdout).toBe('');
  });

  it('a first start (PGlite, no database in the data dir) is told from a later one or from PostgreSQL', () => {
    expect(firstStart(root, {})).toBe(true);
    write('data/PG_VERSION', '17');
    expect(firstStart(root, {})).toBe(false);
    // DATA_DIR is read beside the checkout when relative
    expect(firstStart(root, { DATA_DIR: 'elsewhere' })).toBe(true);
    write('elsewhere/PG_VERSION', '17');
    expect(firstStart(root, { DATA_DIR: 'elsewhere' })).toBe(false);
    expect(firstStart(root, { DATA_DIR: join(root, 'elsewhere') })).toBe(false);
    // on PostgreSQL the server itself generates the demo on an empty database
    expect(firstStart(root, { DATA_DIR: 'nowhere', DATABASE_URL: 'postgresql://x/y' })).toBe(false);
  });
});
