import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from './driver.js';
import { migrate } from './migrate.js';
import {
  holdsNoCluster,
  pgliteVersion,
  readTemplate,
  TEMPLATE_FILE,
  TEMPLATE_KEY_FILE,
  TEMPLATE_MARK,
} from './pglite-template.js';

const work = mkdtempSync(join(tmpdir(), 'cena-template-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The comment of the database `postgres`: the template's mark when the cluster was loaded from it. */
const mark = async (db: Awaited<ReturnType<typeof openDb>>) =>
  (
    await db.query<{ mark: string | null }>(
      `select shobj_description(oid, 'pg_database') as mark from pg_database where datname = 'postgres'`,
    )
  )[0].mark;

describe('a new PGlite database from the build’s empty cluster (not initdb)', () => {
  it('the build made the template of the installed PGlite', () => {
    expect(existsSync(TEMPLATE_FILE), 'npm run build makes dist/pglite-template.tar.gz').toBe(true);
    expect(readTemplate()).not.toBeNull();
  });

  it('a new data dir is loaded from it, migrated, written to and opened again as any other', async () => {
    const dir = join(work, 'fresh');
    expect(holdsNoCluster(dir)).toBe(true);
    const db = await openDb({ dataDir: dir });
    expect(await mark(db)).toBe(`${TEMPLATE_MARK} ${pgliteVersion()}`);
    await migrate(db);
    await db.query(`insert into developer (name) values ('Шаблон')`);
    await db.close();
    expect(holdsNoCluster(dir)).toBe(false);
    // an existing cluster is opened as it is (PGlite refuses a template over one)
    const again = await openDb({ dataDir: dir });
    expect(await again.query(`select name from developer`)).toEqual([{ name: 'Шаблон' }]);
    await again.close();
  });

  it('an in-memory database too', async () => {
    const db = await openDb({ memory: true });
    expect(await mark(db)).toBe(`${TEMPLATE_MARK} ${pgliteVersion()}`);
    await db.close();
  });

  it('a template another PGlite version made, or a missing one, is not used', () => {
    const file = join(work, 't.tar.gz');
    const key = join(work, 't.json');
    copyFileSync(TEMPLATE_FILE, file);
    writeFileSync(key, JSON.stringify({ pglite: pgliteVersion() }));
    expect(readTemplate(file, key)).not.toBeNull();
    writeFileSync(key, JSON.stringify({ pglite: '0.0.1' }));
    expect(readTemplate(file, key)).toBeNull();
    expect(readTemplate(join(work, 'none.tar.gz'), TEMPLATE_KEY_FILE)).toBeNull();
    expect(readTemplate(file, join(work, 'none.json'))).toBeNull();
  });
});
