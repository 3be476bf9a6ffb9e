import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/driver.js';
import { bytes, decodeSpan } from '../src/db/kept.js';
import { keptSpanBodies } from '../src/db/queries/market-spans.js';
import { Importer } from '../src/ingest/importer.js';
import { MarketReader } from '../src/read/market-reader.js';
import { membersVersion } from '../src/read/market-scopes.js';
import { ReadCache } from '../src/read/read-cache.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyImport } from '../src/use-cases/imports.js';
import { type KeepReport, keepMarketSpans } from '../src/use-cases/market-spans.js';
import type { roundOnThread as RoundOnThread } from '../src/use-cases/round-thread.js';
import { databaseKinds, freshDb } from './databases.js';
import { toSnapshot } from './kept-data.js';
import { projectArb } from './random-market.js';

// A server on PostgreSQL runs the market's rounds on a thread of their own (use-cases/round-thread.ts).
// The thread is the compiled worker (the suite builds before it runs), driven here as the server drives it.
const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/src/use-cases/round-thread.js');

describe.runIf(databaseKinds().includes('postgresql'))('a round on a thread of its own [postgresql]', () => {
  let fresh: { db: Db; drop: () => Promise<void>; url?: string };
  let onThread: typeof RoundOnThread;

  beforeAll(async () => {
    fresh = await freshDb('postgresql');
    ({ roundOnThread: onThread } = await import(DIST));
  });
  afterAll(async () => fresh?.drop());

  it('keeps every span as this thread would: the union of its members made afresh, nothing left to make', async () => {
    const importer = new Importer(fresh.db, 2, 31);
    const projects = fc.sample(projectArb, { numRuns: 3, seed: 11 });
    // imported with no round: the thread's round makes every span
    const host = { ...commandHost(fresh.db, importer), keepMarket: async () => {} };
    for (const [p, project] of projects.entries())
      await applyImport(host, { snapshots: project.map((s) => toSnapshot(p, s)) }, cliActor());
    const round = onThread(fresh.url, { min: 1 });
    expect(round).not.toBeNull();
    const report: KeepReport = await round!();
    expect(report.made).toBe(report.kept);
    expect(report.made).toBeGreaterThanOrEqual(10);
    const kept = await keptSpanBodies(fresh.db);
    expect(kept).toHaveLength(report.kept);
    const members = await new MarketReader(new ReadCache()).projects(fresh.db);
    for (const row of kept.filter((r) => r.scope === 'market')) {
      const made = await new MarketReader(new ReadCache()).span(
        fresh.db,
        members,
        row.status as 'ALL',
        row.rooms as 'all',
      );
      expect(decodeSpan(bytes(row.body))).toEqual(made);
      expect(row.members).toBe(membersVersion(members));
    }
    // this thread's round finds nothing to make
    const again = await keepMarketSpans(fresh.db, new MarketReader(new ReadCache()), { min: 1 });
    expect(again.made).toBe(0);
    expect(again.kept).toBe(report.kept);
  });

  it('a round that fails on its thread says why; none where there is no server database', async () => {
    const broken = onThread('postgresql://root@localhost/no_such_database_here?host=/var/run/postgresql');
    await expect(broken!()).rejects.toThrow(/no_such_database_here/);
    expect(onThread(undefined)).toBeNull();
  });
});
