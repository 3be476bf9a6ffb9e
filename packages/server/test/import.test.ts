import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expandStatsColumns } from '@cena-metra/contract';
import { expect, it } from 'vitest';
import { DEFAULT_CARRY_DAYS } from '../src/analytics/types.js';
import type { Db } from '../src/db/driver.js';
import { planDemo } from '../src/demo/generate.js';
import { importBatch, importSnapshots } from '../src/ingest/batch.js';
import { Importer, MODELS_KEPT } from '../src/ingest/importer.js';
import { readFileSnapshots } from '../src/ingest/readers/index.js';
import { SnapshotValidationError, validateSnapshot } from '../src/ingest/snapshot.js';
import { toDay } from '../src/lib/days.js';
import { ReadCache } from '../src/read/read-cache.js';
import { type ChunkedBody, joined } from '../src/read/stats-json.js';
import { StatsReader } from '../src/read/stats-reader.js';
import { rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { keptData } from './kept-data.js';
import { shuffled } from './random-market.js';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const count = async (db: Db, table: string) =>
  (await db.query<{ c: number }>(`select count(*)::int as c from ${table}`))[0].c;
const source =
  (path: string, options = {}) =>
  () =>
    readFileSnapshots(path, options);

/** A developer's list of a day: one-room flats f0, f1, … at the given prices. */
const listOf = (developer: string) => (date: string, project: string, prices: number[]) =>
  validateSnapshot(
    {
      date,
      developer,
      project,
      flats: prices.map((price, i) => ({ id: `f${i}`, building: '1', rooms: 1, area: 40, price })),
    },
    { file: 't' },
  );

describeEachDb('import', (ctx) => {
  it('reads real PIK API responses (date from the file name), idempotently', async () => {
    const importer = new Importer(ctx.db, 2);
    const files = ['2020-01-10T15-33.json', '2020-01-12T14-22.json'].map((f) =>
      source(join(FIXTURES, 'pik-api', f)),
    );
    const first = await importBatch(importer, files);
    expect(first.map((r) => [r.project, r.date, r.status, r.flats])).toEqual([
      ['Саларьево парк', '2020-01-10', 'imported', 14],
      ['Саларьево парк', '2020-01-12', 'imported', 11],
    ]);
    // three flats of the first list are missing from the second: with G = 2 not yet removed
    expect(first[1].events.REMOVED).toBe(0);
    expect(first[1].events.NEW).toBe(0);
    const again = await importBatch(new Importer(ctx.db, 2), files);
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'unchanged']);
    const [dev] = await ctx.db.query<{ name: string }>('select name from developer');
    expect(dev.name).toBe('ПИК');
    const facings = await ctx.db.query<{ facing: string; settlement_date: string | null }>(
      'select distinct facing, settlement_date from flat_observation where present order by 1, 2',
    );
    expect(facings.map((f) => f.facing)).toContain('FURNITURE');
    expect(facings.some((f) => f.settlement_date === null)).toBe(true);
  });

  it('reads the PIK site scrape: display strings, project names from projects.csv', async () => {
    const results = await importBatch(new Importer(ctx.db, 2), [
      source(join(FIXTURES, 'pik-scrape', 'flats.csv'), { date: '2021-01-15' }),
    ]);
    const projects = results.map((r) => r.project).sort();
    expect(projects).toContain('Перовское 2');
    expect(projects).toContain('Саларьево парк');
    const [flat] = await ctx.db.query<{
      price: number;
      area: number;
      rooms: number;
      settlement_date: string;
      floor: number;
      section: string;
    }>(
      `select o.price, o.area, o.rooms, o.settlement_date, o.floor, o.section from flat_observation o
       join flat f on f.id = o.flat_id where f.external_id = '708857'`,
    );
    expect(flat).toEqual({
      price: 13806240,
      area: 78.4,
      rooms: 3,
      settlement_date: '2023-08-30',
      floor: 3,
      section: '1',
    });
  });

  it('rejects a whole batch naming file, line and field, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-'));
    writeFileSync(
      join(dir, 'ok.json'),
      JSON.stringify({
        date: '2026-11-20',
        developer: 'Пионер',
        project: 'Тест',
        flats: [{ id: 'a', building: '1', rooms: 1, area: 40, price: 10000000 }],
      }),
    );
    writeFileSync(
      join(dir, 'bad.csv'),
      '\uFEFFdate;developer;project;id;building;rooms;area;price\n2026-11-20;Пионер;Тест2;x;1;1;abc;100\n2026-11-20;Пионер;Тест2;y;1;-1;40;100\n',
    );
    const before = await count(ctx.db, 'snapshot');
    const error = await importBatch(new Importer(ctx.db, 2), [
      source(join(dir, 'ok.json')),
      source(join(dir, 'bad.csv')),
    ]).catch((e) => e);
    expect(error).toBeInstanceOf(SnapshotValidationError);
    expect(error.errors).toContain(
      'bad.csv: строка 2: area: должно быть положительным числом (получено "abc")',
    );
    expect(error.errors).toContain(
      'bad.csv: строка 3: rooms: должно быть целым числом ≥ 0 (0 — студия) (получено "-1")',
    );
    expect(await count(ctx.db, 'snapshot')).toBe(before);
  });

  it('names the JSON index and field', () => {
    expect(() =>
      validateSnapshot(
        {
          date: '2026-11-20',
          developer: 'Пионер',
          project: 'П',
          flats: Array.from({ length: 18 }, (_, i) => ({
            id: String(i),
            building: '1',
            rooms: 1,
            area: i === 17 ? 'abc' : 40,
            price: 5_000_000,
          })),
        },
        { file: '2026-11-20.json' },
      ),
    ).toThrow('2026-11-20.json: flats[17].area: должно быть положительным числом (получено "abc")');
  });

  it('replaces a different snapshot of the same date and keeps stats as if imported in order', async () => {
    const importer = new Importer(ctx.db, 2);
    const snap = (price: number) =>
      validateSnapshot(
        {
          date: '2026-11-20',
          developer: 'Пионер',
          project: 'Замена',
          flats: [{ id: 'a', building: '1', rooms: 1, area: 40, price }],
        },
        { file: 't' },
      );
    expect((await importer.apply(snap(10_000_000))).status).toBe('imported');
    expect((await importer.apply(snap(10_000_000))).status).toBe('unchanged');
    expect((await importer.apply(snap(12_000_000))).status).toBe('replaced');
    const [p] = await ctx.db.query<{ id: number }>("select id from project where name = 'Замена'");
    const stats = await new StatsReader().getProjectStats(ctx.db, {
      projectId: p.id,
      from: '2026-11-20',
      to: '2026-11-20',
    });
    expect(stats.allRoomsData.points[0].avgMeterPrice).toBe(300_000);
  });

  it('a new flat is first seen on its list’s day; one its day’s list drops again is not seen; rebuild agrees', async () => {
    const importer = new Importer(ctx.db, 2);
    const list = (date: string, ids: string[]) =>
      validateSnapshot(
        {
          date,
          developer: 'Пионер',
          project: 'Первые',
          flats: ids.map((id) => ({ id, building: '1', rooms: 1, area: 40, price: 10_000_000 })),
        },
        { file: 't' },
      );
    const firstSeen = async () =>
      Object.fromEntries(
        (
          await ctx.db.query<{ external_id: string; first_seen: string | null }>(
            `select f.external_id, f.first_seen::text from flat f join project p on p.id = f.project_id
             where p.name = 'Первые' order by 1`,
          )
        ).map((r) => [r.external_id, r.first_seen]),
      );
    const steps: [string, string[], Record<string, string | null>][] = [
      ['2026-11-20', ['a'], { a: '2026-11-20' }],
      ['2026-11-21', ['a', 'b'], { a: '2026-11-20', b: '2026-11-21' }],
      // the day's list again without b: b was never in a list that stands
      ['2026-11-21', ['a'], { a: '2026-11-20', b: null }],
      // an earlier list moves a's first presence and brings c
      ['2026-11-19', ['a', 'c'], { a: '2026-11-19', b: null, c: '2026-11-19' }],
    ];
    for (const [date, ids, expected] of steps) {
      await importer.apply(list(date, ids));
      expect(await firstSeen(), date).toEqual(expected);
    }
    // in one batch, a next day's list bringing d and that day's list again without it
    await importSnapshots(importer, [list('2026-11-22', ['a', 'd']), list('2026-11-22', ['a'])]);
    expect(await firstSeen()).toEqual({ a: '2026-11-19', b: null, c: '2026-11-19', d: null });
    const imported = await keptData(ctx.db);
    await rebuildProjects(ctx.db, 2);
    expect(await keptData(ctx.db)).toEqual(imported);
  });

  it('gives the same stats and summaries whatever the import order; rebuild reproduces the derived tables', async () => {
    const plan = planDemo({ until: '2024-03-01', from: '2023-10-01', developers: 1, scale: 0.05, seed: 7 });
    const snapshots = plan.days
      .map((_, k) => plan.snapshot(0, k))
      .filter((s) => (s.flats as unknown[]).length);
    const asProject = (name: string, order: number) =>
      shuffled(snapshots, order).map((s) => validateSnapshot({ ...s, developer: name }, { file: 'demo' }));
    const inOrder = new Importer(ctx.db, 2);
    for (const s of asProject('Порядок', 0).sort((a, b) => a.date.localeCompare(b.date)))
      await inOrder.apply(s);
    const shuffledImporter = new Importer(ctx.db, 2);
    for (const s of asProject('Вразброс', 3)) await shuffledImporter.apply(s);
    const projects = await ctx.db.query<{ id: number; developer: string }>(
      "select p.id, d.name as developer from project p join developer d on d.id = p.developer_id where d.name in ('Порядок', 'Вразброс') order by d.name",
    );
    expect(projects).toHaveLength(2);
    const range = { from: '2023-09-01', to: '2024-04-01' };
    const engine = new StatsReader();
    const [a, b] = await Promise.all(
      projects.map((p) => engine.getProjectStats(ctx.db, { projectId: p.id, ...range })),
    );
    expect(a.allRoomsData.points.length).toBeGreaterThan(100);
    expect(a).toEqual(b);
    const summaries = async (id: number) =>
      ctx.db.query(
        `select date, is_new_project, flats_count, new_flats, removed_flats, price_up, price_down,
         round(avg_change_percent::numeric, 9) as ch, round(avg_meter_price::numeric, 6) as ap
         from summary_project where project_id = $1 order by date`,
        [id],
      );
    expect(await summaries(projects[0].id)).toEqual(await summaries(projects[1].id));

    const incremental = await keptData(ctx.db);
    await rebuildProjects(ctx.db, 2);
    expect(await keptData(ctx.db)).toEqual(incremental);
  });

  it('the engine answers the same whatever its caches keep: JSON bytes = objects, evicting, packed active flats', async () => {
    const plan = planDemo({ until: '2024-03-01', from: '2023-10-01', developers: 1, scale: 0.05, seed: 11 });
    const importer = new Importer(ctx.db, 2);
    for (const name of ['Кэш А', 'Кэш Б'])
      for (let k = 0; k < plan.days.length; k++) {
        const s = plan.snapshot(0, k);
        if ((s.flats as unknown[]).length)
          await importer.apply(validateSnapshot({ ...s, developer: name }, { file: 'demo' }));
      }
    const ids = (
      await ctx.db.query<{ id: number }>(
        "select p.id from project p join developer d on d.id = p.developer_id where d.name like 'Кэш %' order by p.id",
      )
    ).map((r) => r.id);
    expect(ids).toHaveLength(2);
    const roomy = new StatsReader();
    // the reference (getProjectStats) reads the summary table from the timeline; the engine the kept one
    // a cache of one byte keeps nothing: every request reads the kept data again
    const tight = new StatsReader({ cache: new ReadCache(1) });
    const ranges = [
      { from: '2023-09-01', to: '2024-04-01' },
      { from: '2023-12-01', to: '2024-01-15' },
    ];
    for (let round = 0; round < 2; round++)
      for (const range of ranges)
        for (const projectId of ids) {
          // ALL in the first round, «только свободные» in the second: each status's kept summary table
          const request = { projectId, ...range, status: round ? ('AVAILABLE' as const) : ('ALL' as const) };
          const objects = await roomy.getProjectStats(ctx.db, request);
          expect(objects.allRoomsData.points.length).toBeGreaterThan(10);
          for (const engine of [roomy, tight]) {
            const identity = await engine.statsResponse(ctx.db, request, null);
            expect(identity.encoding).toBeNull();
            expect(JSON.parse(joined(identity.body as ChunkedBody).toString('utf8'))).toEqual(objects);
            const gzip = await engine.statsResponse(ctx.db, request, 'gzip');
            expect(JSON.parse(gunzipSync(gzip.body as Buffer).toString('utf8'))).toEqual(objects);
            // the web's columns (§12.2): the same answer, through the same caches
            const columns = await engine.statsResponse(ctx.db, request, 'gzip', undefined, 'columns');
            expect(columns.etag).not.toBe(gzip.etag);
            const parsed = JSON.parse(gunzipSync(columns.body as Buffer).toString('utf8'));
            expect(expandStatsColumns(parsed)).toEqual(objects);
            expect(JSON.stringify(parsed).length).toBeLessThan(JSON.stringify(objects).length / 2);
          }
        }
    // the active flats come back from their packed form as they were read
    const [{ last }] = await ctx.db.query<{ last: string }>(
      'select last_snapshot_date::text as last from project where id = $1',
      [ids[0]],
    );
    const a = toDay(last);
    const read = await roomy.flatsOnDay(ctx.db, ids[0], a, a);
    expect(read.length).toBeGreaterThan(10);
    const first = await roomy.activeFlats(ctx.db, ids[0], a);
    const again = await roomy.activeFlats(ctx.db, ids[0], a);
    expect(first).toEqual(read);
    expect(again).toEqual(read);
    again.sort((x, y) => y.flatId - x.flatId);
    expect(await roomy.activeFlats(ctx.db, ids[0], a)).toEqual(read);
  });

  it('keeps the models of the last MODELS_KEPT projects only, and imports as well after forgetting one', async () => {
    const day = listOf('Модели');
    const busy = new Importer(ctx.db, 2);
    const names = Array.from({ length: MODELS_KEPT + 3 }, (_, i) => `Модель ${i + 1}`);
    for (const name of names) await busy.apply(day('2026-11-01', name, [10_000_000, 11_000_000]));
    const ids = (
      await ctx.db.query<{ id: number }>(
        "select p.id from project p join developer d on d.id = p.developer_id where d.name = 'Модели' order by p.id",
      )
    ).map((r) => r.id);
    expect(busy.keptModels()).toEqual(ids.slice(-MODELS_KEPT));
    // the first project's model was dropped: its next day, a plain append, is read from its window in the
    // database (a model not kept: the kept ones stay) and gives the events a model kept all along gives
    const next = await busy.apply(day('2026-11-02', names[0], [9_000_000, 11_500_000, 12_000_000]));
    expect(busy.loads).toEqual({ window: 1, whole: MODELS_KEPT + 3 });
    expect(busy.keptModels()).toEqual(ids.slice(-MODELS_KEPT));
    const alone = new Importer(ctx.db, 2);
    await alone.apply(day('2026-11-01', 'Модель одна', [10_000_000, 11_000_000]));
    const control = await alone.apply(day('2026-11-02', 'Модель одна', [9_000_000, 11_500_000, 12_000_000]));
    expect(next.status).toBe('imported');
    expect(next.events).toEqual(control.events);
    expect(next.events).toMatchObject({ NEW: 1 });
  });

  it('lets a model over the objects kept go when its request is done, and imports as well after it', async () => {
    const day = listOf('Вес моделей');
    const prices = (n: number, base: number) => Array.from({ length: n }, (_, i) => base + i * 10_000);
    // 20 flats: 20 rows and 20 segments; one flat: 2 objects; at most 30 kept
    const light = new Importer(ctx.db, 2, DEFAULT_CARRY_DAYS, 30);
    // two days of the large project in one transaction: its model serves both, then goes
    const both = await importSnapshots(light, [
      day('2026-11-01', 'Большая', prices(20, 10_000_000)),
      day('2026-11-02', 'Большая', prices(20, 9_900_000)),
    ]);
    expect(both.map((r) => r.events.PRICE_DOWN)).toEqual([0, 20]);
    expect(light.keptModels()).toEqual([]);
    await light.apply(day('2026-11-01', 'Малая', [10_000_000]));
    expect(light.keptModels()).toHaveLength(1);
    // the large project's next day, read from the database, gives what a model kept all along gives
    const next = await light.apply(day('2026-11-03', 'Большая', prices(20, 10_000_000)));
    expect(light.keptModels()).toHaveLength(1);
    const roomy = new Importer(ctx.db, 2);
    await roomy.apply(day('2026-11-01', 'Большая вторая', prices(20, 10_000_000)));
    await roomy.apply(day('2026-11-02', 'Большая вторая', prices(20, 9_900_000)));
    const control = await roomy.apply(day('2026-11-03', 'Большая вторая', prices(20, 10_000_000)));
    expect(roomy.keptModels()).toHaveLength(1);
    expect(next.events).toEqual(control.events);
    expect(next.events).toMatchObject({ PRICE_UP: 20 });
  });
});
