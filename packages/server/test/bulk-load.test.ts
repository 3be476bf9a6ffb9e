import { expect, it } from 'vitest';
import { plannedObservations } from '../src/db/migrate.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { appliedOf, applyImport, BULK_LOAD, isBulkLoad } from '../src/use-cases/imports.js';
import { describeEachDb } from './databases.js';

// The tables' statistics after an import (use-cases/imports.ts: followImport): brought up to date after a bulk
// load — into tables never analyzed, or a batch whose flats are a tenth of the observations counted — not
// after each request of a day's lists (an ANALYZE of the reference market's tables takes seconds).

const list = (project: number, day: number, flats: number) =>
  validateSnapshot(
    {
      date: `2026-01-${String(day).padStart(2, '0')}`,
      developer: 'Застройщик',
      project: `Проект ${project}`,
      flats: Array.from({ length: flats }, (_, i) => ({
        id: String(i),
        building: '1',
        rooms: 1 + (i % 3),
        area: 30 + (i % 40),
        price: 6_000_000 + 10_000 * i + 1_000 * day,
      })),
    },
    { file: 'test', at: `${project}/${day}` },
  );

describeEachDb('the statistics after an import', (ctx) => {
  it('a first load is a bulk load; a day of a few lists over a large market is not, and runs no ANALYZE', async () => {
    const host = commandHost(ctx.db, new Importer(ctx.db, 2));
    const count = async () => {
      const [row] = await ctx.db.query<{ n: number }>(
        "select coalesce(sum(analyze_count), 0)::int as n from pg_stat_user_tables where relname = 'flat_observation'",
      );
      return Number(row.n);
    };
    // never analyzed: the first load of ten lists or more is a bulk load; fewer lists never are
    await ctx.db.exec('truncate flat_observation');
    expect(await isBulkLoad(host, { lists: BULK_LOAD, flats: 1 })).toBe(
      (await plannedObservations(ctx.db)) < 0,
    );
    expect(await isBulkLoad(host, { lists: BULK_LOAD - 1, flats: 1e9 })).toBe(false);
    const first = Array.from({ length: 12 }, (_, p) => list(p, 1, 100));
    await applyImport(host, { snapshots: first }, cliActor());
    // after it the statistics count its rows (1,200 observations), and the pace summaries are laid out by
    // filter (migration 41: a round reads one filter of every project), not project by project as written
    const laid = await ctx.db.query<{ status: string; rooms: string; project_id: number }>(
      'select status, rooms, project_id from pace_summary order by ctid',
    );
    const key = (r: (typeof laid)[number]) =>
      `${r.status}\u0000${r.rooms}\u0000${String(r.project_id).padStart(9)}`;
    expect(laid.length).toBeGreaterThan(12);
    expect(laid.map(key)).toEqual(laid.map(key).sort());
    const planned = await plannedObservations(ctx.db);
    expect(planned).toBeGreaterThanOrEqual(1000);
    // a batch of a tenth of them is a bulk load, a smaller one is not
    expect(await isBulkLoad(host, { lists: 12, flats: Math.ceil(planned / 10) })).toBe(true);
    expect(await isBulkLoad(host, { lists: 12, flats: Math.floor(planned / 10) - 1 })).toBe(false);
    // twelve lists of 5 flats each: 60 flats of 1,200 — no ANALYZE (PostgreSQL counts them)
    const before = await count();
    const small = Array.from({ length: 12 }, (_, p) => list(100 + p, 2, 5));
    const results = await applyImport(host, { snapshots: small }, cliActor());
    expect(appliedOf(results)).toEqual({ lists: 12, flats: 60 });
    expect(await count()).toBe(before);
    // and the next day of the first twelve (1,200 flats): a bulk load, analyzed
    await applyImport(host, { snapshots: Array.from({ length: 12 }, (_, p) => list(p, 3, 100)) }, cliActor());
    expect(await plannedObservations(ctx.db)).toBeGreaterThan(planned);
  }, 120_000);
});
