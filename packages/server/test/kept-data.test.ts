import { gzipSync } from 'node:zlib';
import { expandStatsColumns } from '@cena-metra/contract';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { joinSummaries } from '../src/analytics/pace-parts.js';
import type { PaceSummary } from '../src/analytics/pace-summary.js';
import type { Db } from '../src/db/driver.js';
import { bytes } from '../src/db/kept.js';
import { DAY_SEPARATOR, decodeSeriesMonth } from '../src/db/kept-series.js';
import { MIGRATIONS } from '../src/db/migrations.js';
import { decodeSummary, encodeSummary } from '../src/db/pace-form.js';
import { latestActiveSegments, timelineActiveSegments } from '../src/db/queries/hedonic.js';
import { importSnapshots } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import type { Snapshot } from '../src/ingest/snapshot.js';
import { fromDay } from '../src/lib/days.js';
import { ChessReader } from '../src/read/chess-reader.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { type ChunkedBody, joined } from '../src/read/stats-json.js';
import { StatsReader } from '../src/read/stats-reader.js';
import { rebuildIfMarked, rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { keptData, PROJECT_TABLES, toSnapshot } from './kept-data.js';
import type { OracleSnapshot } from './oracle.js';
import { marketArb, shuffled } from './random-market.js';

/**
 * The import path a market takes: each list once in a random order, some imported twice (a replaced
 * list, then the list itself again), some in batches of one transaction, some alone.
 */
function importPlan(projects: OracleSnapshot[][], seed: number): Snapshot[][] {
  const lists = projects.flatMap((snaps, p) => snaps.map((s) => toSnapshot(p, s)));
  const replaced = projects.flatMap((snaps, p) =>
    snaps.filter((_, k) => (k + seed) % 4 === 0).map((s) => toSnapshot(p, s, 1 + (seed % 3))),
  );
  // a replaced variant goes before its list, so the list as it finally is comes last
  const order = shuffled(
    [...replaced.map((s) => ({ s, first: true })), ...lists.map((s) => ({ s, first: false }))],
    seed,
  );
  const firsts = order.filter((x) => x.first).map((x) => x.s);
  const rest = order.filter((x) => !x.first).map((x) => x.s);
  const all = [...firsts, ...rest];
  const batches: Snapshot[][] = [];
  for (let i = 0; i < all.length; ) {
    const size = 1 + ((seed + i) % 3);
    batches.push(all.slice(i, i + size));
    i += size;
  }
  return batches;
}

async function clear(db: Db) {
  await db.query(`truncate ${PROJECT_TABLES} restart identity cascade`);
}

/** A fresh database holding one random market (`seed`), imported by the plan of `orderSeed`. */
/** The next open after a migration (that left `mark` too): what it said as it made the kept forms again. */
async function nextOpen(db: Db, market: { grace: number; carry: number }, mark?: string) {
  if (mark) await db.query(`insert into app_meta (key, value) values ($1, 'тест')`, [mark]);
  const lines: string[] = [];
  await rebuildIfMarked(db, market.grace, market.carry, (line) => lines.push(line));
  return lines;
}

async function importedMarket(db: Db, seed: number, orderSeed: number) {
  await clear(db);
  const [market] = fc.sample(marketArb, { numRuns: 1, seed });
  const importer = new Importer(db, market.grace, market.carry);
  for (const batch of importPlan(market.projects, orderSeed)) await importSnapshots(importer, batch);
  return market;
}

/**
 * Expects the kept data to equal a rebuild from the observations, byte for byte, and the chessboard each
 * project first shows, as kept, the one the reader makes from the timeline; returns the boards' cells.
 */
async function expectRebuildEqual(db: Db, market: { grace: number; carry: number; projects: unknown[][] }) {
  const incremental = await keptData(db);
  // every variant of every project with lists, in parts of a year
  const variants = new Set(incremental.pace.map((r) => `${r.project_id}:${r.status}:${r.rooms}`));
  expect(variants.size).toBe(10 * market.projects.filter((p) => p.length).length);
  // the hedonic sums of the months with flats on sale (DESIGN §12.4)
  const listed = market.projects.some((p) =>
    (p as { flats: Map<string, unknown> }[]).some((s) => s.flats.size),
  );
  expect(incremental.hedonic.length > 0).toBe(listed);
  await rebuildProjects(db, market.grace, undefined, undefined, market.carry);
  expect(await keptData(db)).toEqual(incremental);
  const projects = await db.query<{ id: number }>('select id from project order by id');
  // each project's lots on sale on its latest list as kept: the timeline's segments of that day, as read
  const ids = projects.map((p) => p.id);
  expect(incremental.active.length).toBe(
    (await db.query('select id from project where last_snapshot_date is not null')).length,
  );
  const timeline = await timelineActiveSegments(db, ids);
  expect(await latestActiveSegments(db, ids)).toEqual(timeline);
  // a project without its row (imported before migration 37) is read from the timeline
  await db.query('delete from active_latest where project_id = any($1::int[])', [
    ids.filter((_, i) => i % 2),
  ]);
  expect(await latestActiveSegments(db, ids)).toEqual(timeline);
  const kept = [];
  for (const { id } of projects)
    kept.push(await new ChessReader(market.carry, new ReadCache()).chess(db, { projectId: id }));
  await db.query('delete from chess_latest');
  let cells = 0;
  for (const [i, { id }] of projects.entries()) {
    const live = await new ChessReader(market.carry, new ReadCache()).chess(db, { projectId: id });
    expect(kept[i]).toEqual(live);
    cells += live.sections.reduce((n, sec) => n + sec.floors.reduce((m, f) => m + f.cells.length, 0), 0);
  }
  return cells;
}

describeEachDb('kept derived data', (ctx) => {
  it('after random imports in random order, the kept data equal a rebuild from the observations, byte for byte', async () => {
    let cells = 0;
    await fc.assert(
      fc.asyncProperty(marketArb, async (market) => {
        await clear(ctx.db);
        // every other market keeps no model between batches: an appended list is read from its window
        const keptObjects = market.orderSeed % 2 === 0 ? 0 : undefined;
        const importer = new Importer(ctx.db, market.grace, market.carry, keptObjects);
        for (const batch of importPlan(market.projects, market.orderSeed))
          await importSnapshots(importer, batch);
        cells += await expectRebuildEqual(ctx.db, market);
      }),
      { numRuns: ctx.kind === 'pglite' ? 40 : 25, seed: 20261124 },
    );
    expect(cells).toBeGreaterThan(100);
  });

  it('lists appended day after day, each read from its window alone (DESIGN §11.1), keep the bytes of a rebuild', async () => {
    const loads = { window: 0, whole: 0 };
    await fc.assert(
      fc.asyncProperty(marketArb, async (market) => {
        await clear(ctx.db);
        // no model kept: every list after a project's first that is a plain append reads its window only
        const importer = new Importer(ctx.db, market.grace, market.carry, 0);
        const lists = market.projects
          .flatMap((snaps, p) => snaps.map((s) => ({ day: s.day, list: toSnapshot(p, s) })))
          .sort((a, b) => a.day - b.day);
        for (const [i, { list }] of lists.entries()) {
          await importSnapshots(importer, [list]);
          // now and then the same list again: unchanged, read from its snapshots' hashes
          if ((i + market.orderSeed) % 5 === 0) await importSnapshots(importer, [list]);
        }
        loads.window += importer.loads.window;
        loads.whole += importer.loads.whole;
        await expectRebuildEqual(ctx.db, market);
      }),
      { numRuns: ctx.kind === 'pglite' ? 25 : 15, seed: 20261126 },
    );
    // the whole history is read only for a project's first list, after a gap, or when other flags move
    expect(loads.window).toBeGreaterThan(100);
  });

  it('migration 11 fills first presences from the observations as the import keeps them', async () => {
    await importedMarket(ctx.db, 11, 3);
    const kept = await ctx.db.query('select id, first_seen::text from flat order by id');
    expect(kept.some((r) => (r as { first_seen: string | null }).first_seen !== null)).toBe(true);
    await ctx.db.query('alter table flat drop column first_seen');
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 11)!.sql);
    expect(await ctx.db.query('select id, first_seen::text from flat order by id')).toEqual(kept);
  });

  it("migration 14 has the ranking's months split from the kept pace summaries at the next open, as the import keeps them", async () => {
    const market = await importedMarket(ctx.db, 14, 5);
    const { ranks } = await keptData(ctx.db);
    expect(ranks.length).toBeGreaterThan(0);
    await ctx.db.query('delete from rank_month');
    expect(await nextOpen(ctx.db, market, 'ranks_by_month_needed')).toEqual([
      'сводки для рейтинга рынка раскладываются по месяцам…',
    ]);
    expect((await keptData(ctx.db)).ranks).toEqual(ranks);
    expect(await ctx.db.query(`select key from app_meta where key = 'ranks_by_month_needed'`)).toEqual([]);
  });

  it('migration 40 has the pace summaries’ tails made from the kept summaries at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 40, 7);
    const { tails } = await keptData(ctx.db);
    // some tails begin after their project's first list (cut), some are whole
    expect(tails.some((t) => (t as { whole: boolean }).whole === false)).toBe(true);
    await ctx.db.query('delete from pace_tail');
    expect(await nextOpen(ctx.db, market, 'pace_tails_needed')).toEqual(['хвосты сводок темпа продаж…']);
    expect((await keptData(ctx.db)).tails).toEqual(tails);
  });

  it('migration 24 has the pace summaries kept whole split into years at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 24, 9);
    const kept = await keptData(ctx.db);
    // the summaries as kept before migration 24: one row a variant, the whole summary
    const rows = await ctx.db.query<{ project_id: number; status: string; rooms: string; body: Uint8Array }>(
      'select project_id, status, rooms, body from pace_summary order by project_id, status, rooms, part',
    );
    const whole = new Map<
      string,
      { project_id: number; status: string; rooms: string; parts: PaceSummary[] }
    >();
    for (const r of rows) {
      const key = `${r.project_id}:${r.status}:${r.rooms}`;
      const w = whole.get(key) ?? { ...r, parts: [] };
      w.parts.push(decodeSummary(r.body));
      whole.set(key, w);
    }
    expect(rows.length).toBeGreaterThan(whole.size);
    await ctx.db.query('delete from pace_summary');
    await ctx.db.query('alter table pace_summary drop constraint pace_summary_pkey');
    await ctx.db.query('alter table pace_summary drop column part');
    await ctx.db.query('alter table pace_summary add primary key (project_id, status, rooms)');
    for (const w of whole.values())
      await ctx.db.query(
        'insert into pace_summary (project_id, status, rooms, body) values ($1, $2, $3, $4)',
        [w.project_id, w.status, w.rooms, encodeSummary(joinSummaries(w.parts))],
      );
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 24)!.sql);
    // the market reads the whole rows before they are split, and the parts after, alike
    const projects = await ctx.db.query<{ id: number; data_version: number }>(
      'select id, data_version from project',
    );
    const before = await new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'ALL', 'all');
    expect(await nextOpen(ctx.db, market)).toEqual([
      'сводки темпа продаж записываются заново (по годам, столбцами)…',
    ]);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect(await ctx.db.query(`select key from app_meta where key = 'pace_parts_needed'`)).toEqual([]);
    const after = await new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'ALL', 'all');
    expect(after).toEqual(before);
    expect(after.size).toBe(projects.length);
  });

  it('migration 28 has the pace summaries kept as JSON written as columns at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 28, 6);
    const kept = await keptData(ctx.db);
    const projects = await ctx.db.query<{ id: number; data_version: number }>(
      'select id, data_version from project',
    );
    const imported = await new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'AVAILABLE', 'two');
    // the bodies as kept before migration 28: gzipped JSON
    const rows = await ctx.db.query<{
      project_id: number;
      status: string;
      rooms: string;
      part: string;
      body: Uint8Array;
    }>('select project_id, status, rooms, part::text, body from pace_summary');
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows)
      await ctx.db.query(
        'update pace_summary set body = $5 where project_id = $1 and status = $2 and rooms = $3 and part = $4::date',
        [r.project_id, r.status, r.rooms, r.part, gzipSync(JSON.stringify(decodeSummary(r.body)))],
      );
    expect(await keptData(ctx.db)).not.toEqual(kept);
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 28)!.sql);
    // read in either form alike
    const fromJson = await new MarketReader(new ReadCache()).summaries(ctx.db, projects, 'AVAILABLE', 'two');
    expect(fromJson).toEqual(imported);
    expect(await nextOpen(ctx.db, market)).toEqual([
      'сводки темпа продаж записываются заново (по годам, столбцами)…',
    ]);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect(await ctx.db.query(`select key from app_meta where key = 'pace_form_needed'`)).toEqual([]);
  });

  it('migration 23 has the stats series kept as texts laid out as sent at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 23, 7);
    const kept = await keptData(ctx.db);
    expect(kept.series.length).toBeGreaterThan(0);
    // the months as kept before migration 23: bytea, the days' texts joined, gzipped
    const rows = await ctx.db.query<{
      project_id: number;
      month: string;
      days: number[];
      a: string;
      b: string;
    }>('select project_id, month::text, days, series_all as a, series_available as b from series_month');
    for (const column of ['series_all', 'series_available'])
      await ctx.db.query(
        `alter table series_month alter column ${column} type bytea using decode(${column}, 'base64')`,
      );
    const older = (body: string, days: number[]) =>
      gzipSync(decodeSeriesMonth(bytes(body), days).join(DAY_SEPARATOR));
    for (const r of rows)
      await ctx.db.query(
        'update series_month set series_all = $3, series_available = $4 where project_id = $1 and month = $2::date',
        [r.project_id, r.month, older(r.a, r.days), older(r.b, r.days)],
      );
    const request = { projectId: rows[0].project_id, from: '2020-01-01', to: '2030-12-31' };
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 23)!.sql);
    // the texts are read before they are laid out again: the stats from months in either layout are the same
    const fromTexts = await new StatsReader().statsResponse(ctx.db, request, null);
    const points = JSON.parse(joined(fromTexts.body as ChunkedBody).toString('utf8')).allRoomsData.points;
    expect(points.length).toBeGreaterThan(5);
    expect(await keptData(ctx.db)).not.toEqual(kept);
    expect(await nextOpen(ctx.db, market)).toEqual(['ряды статистики записываются в виде ответа…']);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect(await ctx.db.query(`select key from app_meta where key = 'series_layout_needed'`)).toEqual([]);
    const laidOut = await new StatsReader().statsResponse(ctx.db, request, null);
    expect(joined(laidOut.body as ChunkedBody).equals(joined(fromTexts.body as ChunkedBody))).toBe(true);
  });

  it('migration 33 has the hedonic sums of every project kept at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 33, 3);
    const kept = await keptData(ctx.db);
    expect(kept.hedonic.length).toBeGreaterThan(0);
    // as before migration 33: no table
    await ctx.db.exec('drop table hedonic_month');
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 33)!.sql);
    // and its stamps as migration 35 adds them (its sequence is there)
    await ctx.db.exec(
      "alter table hedonic_month add column stamp integer default nextval('hedonic_month_stamp')",
    );
    expect(await ctx.db.query('select 1 from hedonic_month')).toEqual([]);
    expect(await nextOpen(ctx.db, market)).toEqual(['суммы гедонической модели по месяцам…']);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect(await ctx.db.query(`select key from app_meta where key = 'hedonic_months_needed'`)).toEqual([]);
  });

  it('migration 26 has the stats series given their columns at the next open, byte for byte as the import keeps them', async () => {
    const market = await importedMarket(ctx.db, 26, 5);
    const kept = await keptData(ctx.db);
    expect(kept.series.every((r) => r.columns_all && r.columns_available)).toBe(true);
    const [{ id }] = await ctx.db.query<{ id: number }>('select min(project_id) as id from series_month');
    const request = { projectId: id, from: '2020-01-01', to: '2030-12-31' };
    const made = await new StatsReader().statsResponse(ctx.db, request, null, undefined, 'columns');
    // the months as kept before migration 26: no columns
    await ctx.db.query('alter table series_month drop column columns_all, drop column columns_available');
    await ctx.db.exec(MIGRATIONS.find((m) => m.id === 26)!.sql);
    expect((await keptData(ctx.db)).series.every((r) => r.columns_all === null)).toBe(true);
    // until the step has run, the answer in columns is made from the series' text: the same bytes
    const fromTexts = await new StatsReader().statsResponse(ctx.db, request, null, undefined, 'columns');
    expect(joined(fromTexts.body as ChunkedBody).equals(joined(made.body as ChunkedBody))).toBe(true);
    expect(await nextOpen(ctx.db, market)).toEqual(['ряды статистики записываются столбцами…']);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect(await ctx.db.query(`select key from app_meta where key = 'series_columns_needed'`)).toEqual([]);
    // and the answer in columns carries the seed's answer
    const points = await new StatsReader().statsResponse(ctx.db, request, null);
    expect(expandStatsColumns(JSON.parse(joined(made.body as ChunkedBody).toString('utf8')))).toEqual(
      JSON.parse(joined(points.body as ChunkedBody).toString('utf8')),
    );
  });

  it('an import that fails between the observations and the kept data leaves everything as it was', async () => {
    await clear(ctx.db);
    const importer = new Importer(ctx.db, 2, 31);
    const day = (d: number, flats: [string, number][]): Snapshot => ({
      date: fromDay(20_000 + d),
      developer: 'Сбой',
      project: 'Сбой',
      source: 'test',
      flats: flats.map(([id, price]) => ({
        externalId: id,
        rec: {
          building: '1',
          section: null,
          floor: 2,
          number: id,
          rooms: 1,
          area: 40,
          facing: 'WHITE',
          settlementDate: null,
          price,
          basePrice: null,
          status: 'AVAILABLE',
          offer: null,
        },
      })),
    });
    await importSnapshots(importer, [
      day(0, [
        ['a', 10_000_000],
        ['b', 11_000_000],
        ['c', 12_000_000],
      ]),
      day(1, [
        ['a', 10_100_000],
        ['b', 11_000_000],
        ['c', 12_000_000],
      ]),
    ]);
    const before = await keptData(ctx.db);
    const versions = await ctx.db.query('select id, data_version from project order by id');
    // the database fails on the n-th statement that writes kept data: after the observations are written
    for (const table of [
      'flat_segment',
      'series_month',
      'flat_event',
      'pace_summary',
      'rank_month',
      'project_latest',
    ]) {
      const faulty = failingOn(ctx.db, table);
      await expect(
        importSnapshots(new Importer(faulty, 2, 31), [
          day(2, [
            ['a', 9_900_000],
            ['c', 12_500_000],
            ['d', 8_000_000],
          ]),
        ]),
      ).rejects.toThrow(`fault injected: ${table}`);
      expect(await keptData(ctx.db), table).toEqual(before);
      expect(await ctx.db.query('select id, data_version from project order by id')).toEqual(versions);
    }
    // the same list imported for real afterwards is kept as a rebuild would keep it
    await importSnapshots(importer, [
      day(2, [
        ['a', 9_900_000],
        ['c', 12_500_000],
        ['d', 8_000_000],
      ]),
    ]);
    const after = await keptData(ctx.db);
    expect(after).not.toEqual(before);
    await rebuildProjects(ctx.db, 2, undefined, undefined, 31);
    expect(await keptData(ctx.db)).toEqual(after);
  });
});

/** The database, failing the first statement that writes `table` (the observations are written before). */
function failingOn(db: Db, table: string): Db {
  const writes = new RegExp(`(insert into|copy|delete from|update) ${table}\\b`);
  const wrap = (inner: Db): Db =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'query')
          return async (sql: string, params?: unknown[]) => {
            if (writes.test(sql)) throw new Error(`fault injected: ${table}`);
            return target.query(sql, params);
          };
        if (prop === 'insertColumns')
          return async (name: string, ...rest: unknown[]) => {
            if (name === table) throw new Error(`fault injected: ${table}`);
            return (target.insertColumns as (...a: unknown[]) => Promise<void>)(name, ...rest);
          };
        if (prop === 'transaction')
          return <T>(fn: (tx: Db) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return wrap(db);
}
