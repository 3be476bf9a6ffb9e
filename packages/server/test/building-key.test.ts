import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlatRecord } from '../src/analytics/types.js';
import type { Db } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { importSnapshots } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import type { Snapshot } from '../src/ingest/snapshot.js';
import { rebuildIfMarked } from '../src/use-cases/rebuild.js';
import { describeEachDb, freshDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §10.3: «Корпус 31», «корп. 31» and «31» are one building, in every reader and in stored data.

const rec = (building: string, price: number): FlatRecord => ({
  building,
  section: null,
  floor: 3,
  number: null,
  rooms: 1,
  area: 40,
  facing: 'UNKNOWN',
  settlementDate: null,
  price,
  basePrice: null,
  status: null,
  offer: null,
});
/** Snapshots as an older version stored them: building names as each source wrote them. */
const legacy = (buildings: [string, string]): Snapshot[] =>
  ['2026-11-01', '2026-11-02', '2026-11-03'].map((date, i) => ({
    date,
    developer: 'ПИК',
    project: 'Саларьево парк',
    source: 'json',
    flats: [
      { externalId: 'a', rec: rec(i === 0 ? buildings[0] : buildings[1], 8_000_000 - i * 100_000) },
      { externalId: 'b', rec: rec(i === 2 ? buildings[0] : buildings[1], 9_000_000) },
    ],
  }));

/** The stored state a migration must leave as a fresh import would: log and every derived table. */
async function stored(db: Db) {
  const out: Record<string, unknown> = {};
  out.observations = await db.query(
    `select f.external_id, o.snapshot_date::text, o.present, o.building, o.price from flat_observation o
     join flat f on f.id = o.flat_id order by 1, 2`,
  );
  out.segments = await db.query(
    `select f.external_id, s.start_day::text, s.end_day::text, s.building from flat_segment s
     join flat f on f.id = s.flat_id order by 1, 2`,
  );
  out.series = await db.query(
    'select month::text, days, series_all, series_available from series_month order by month',
  );
  out.events = await db.query(
    `select e.day::text, f.external_id, e.kind, e.building from flat_event e join flat f on f.id = e.flat_id
     order by 1, 2`,
  );
  out.summaries = await db.query(
    'select date::text, flats_count, new_flats, price_down, avg_meter_price from summary_project order by date',
  );
  return out;
}

/** The source of truth (catalog, snapshots, observation log) of one database copied into another's tables. */
async function copyLog(from: Db, to: Db) {
  const tables: [string, string][] = [
    ['developer', 'id, name'],
    ['project', 'id, developer_id, name'],
    ['flat', 'id, project_id, external_id'],
    ['snapshot', 'id, project_id, date, flats_count, content_hash, source'],
    [
      'flat_observation',
      'project_id, flat_id, snapshot_date, present, building, section, floor, number, rooms, area, facing, settlement_date, price, base_price, status',
    ],
  ];
  for (const [table, columns] of tables) {
    const rows = await from.query<Record<string, unknown>>(`select ${columns} from ${table}`);
    const names = columns.split(', ');
    for (const row of rows)
      await to.query(
        `insert into ${table} (${columns}) values (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
        names.map((n) => row[n]),
      );
  }
}

describeEachDb('building keys', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
  });
  afterAll(async () => app?.close());

  it('two sources naming one building differently import as one building «31»', async () => {
    const days = [
      snap('2026-11-01', 'ПИК', 'Саларьево парк', [
        { ...flat('a', 1, 40, 8_000_000), building: 'Корпус 31' },
      ]),
      snap('2026-11-02', 'ПИК', 'Саларьево парк', [{ ...flat('a', 1, 40, 8_000_000), building: '31' }]),
      snap('2026-11-03', 'ПИК', 'Саларьево парк', [
        { ...flat('a', 1, 40, 8_000_000), building: ' корп.  31 ' },
      ]),
    ];
    const res = await app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers, payload: days });
    expect(res.statusCode, res.body).toBe(200);
    // the same record every day: nothing changed after the first snapshot
    expect(res.json().map((r: { events: Record<string, number> }) => r.events)).toEqual([
      { NEW: 0, REMOVED: 0, PRICE_UP: 0, PRICE_DOWN: 0, AREA_CHANGED: 0, PROMO_STARTED: 0, PROMO_ENDED: 0 },
      { NEW: 0, REMOVED: 0, PRICE_UP: 0, PRICE_DOWN: 0, AREA_CHANGED: 0, PROMO_STARTED: 0, PROMO_ENDED: 0 },
      { NEW: 0, REMOVED: 0, PRICE_UP: 0, PRICE_DOWN: 0, AREA_CHANGED: 0, PROMO_STARTED: 0, PROMO_ENDED: 0 },
    ]);
    const [{ id }] = await ctx.db.query<{ id: number }>(
      `select id from project where name = 'Саларьево парк'`,
    );
    const stats = await app.inject({
      method: 'POST',
      url: '/api/project/stats',
      headers,
      payload: { projectId: id, from: '2026-11-01', to: '2026-11-03' },
    });
    const points = stats.json().allRoomsData.points as { avgMeterPriceByBuilding: Record<string, number> }[];
    expect(points.map((p) => Object.keys(p.avgMeterPriceByBuilding))).toEqual([['31'], ['31'], ['31']]);
    const rows = await ctx.db.query<{ n: number }>('select count(*)::int as n from flat_observation');
    expect(rows[0].n).toBe(1);
  });

  it('the migration rewrites stored names, drops rows it made equal, and the rebuild matches a fresh import', async () => {
    const old = await freshDb(ctx.kind, 4);
    const clean = await freshDb(ctx.kind);
    const today = await freshDb(ctx.kind);
    try {
      // an older database: migrations before the building key, names stored as the sources wrote them
      // (the log written by today's importer, which takes names as given, then copied into the old schema)
      await importSnapshots(new Importer(today.db, 2), legacy(['Корпус 31', 'корп. 31']));
      await copyLog(today.db, old.db);
      const [{ n: before }] = await old.db.query<{ n: number }>(
        'select count(*)::int as n from flat_observation',
      );
      await migrate(old.db);
      const [{ n: after }] = await old.db.query<{ n: number }>(
        'select count(*)::int as n from flat_observation',
      );
      expect(after).toBeLessThan(before);
      const lines: string[] = [];
      await rebuildIfMarked(old.db, 2, 31, (line) => lines.push(line));
      expect(lines[0]).toContain('ключи корпусов');
      const marks = await old.db.query(`select 1 from app_meta where key = 'rebuild_needed'`);
      expect(marks).toHaveLength(0);

      await importSnapshots(new Importer(clean.db, 2), legacy(['31', '31']));
      expect(await stored(old.db)).toEqual(await stored(clean.db));
    } finally {
      await old.drop();
      await clean.drop();
      await today.drop();
    }
  });
});
