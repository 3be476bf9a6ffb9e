import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openContext } from '../src/cli/context.js';
import { heapGrowthLimited } from '../src/lib/heap.js';
import { databaseKinds, freshDb } from './databases.js';

// the limit is the process's from the moment it is set: the cases run in this order, the one that sets it last
describe('the heap growth limit (lib/heap.ts): a command on PGlite, not the demo, not on PostgreSQL', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cena-heap-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    vi.unstubAllEnvs();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens and closes a command's context on a fresh PGlite data dir; whether the heap is limited then. */
  const onPglite = async (role: string) => {
    vi.stubEnv('DATABASE_URL', '');
    const ctx = await openContext({ dataDir: dataDir() }, role);
    await ctx.close();
    expect(ctx.db.kind).toBe('pglite');
    return heapGrowthLimited();
  };

  it('the demo on PGlite keeps V8’s growth (batch work)', async () => {
    expect(await onPglite('demo')).toBe(false);
  });

  it.runIf(databaseKinds().includes('postgresql'))('a server on PostgreSQL keeps V8’s growth', async () => {
    const pg = await freshDb('postgresql');
    try {
      const ctx = await openContext({}, 'serve', { databaseUrl: pg.url });
      await ctx.close();
      expect(ctx.db.kind).toBe('postgresql');
      expect(heapGrowthLimited()).toBe(false);
    } finally {
      await pg.drop();
    }
  });

  it('a server on PGlite limits it', async () => {
    expect(await onPglite('serve')).toBe(true);
  });
});
