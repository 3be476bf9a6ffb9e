import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { importBatch } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { readFileSnapshots } from '../src/ingest/readers/index.js';
import { StatsReader } from '../src/read/stats-reader.js';
import { freshDb } from './databases.js';

// The real PIK Salaryevo lists (../shared/data/real, beside the checkout; CI has them): four snapshots,
// 906 days between the second and the third, 151 between the third and the fourth (DESIGN §10.1).

const SALARYEVO = new URL('../../../../shared/data/real/pik_salaryevo_park_api_snapshots/', import.meta.url)
  .pathname;
const FILES = [
  '2020-01-10T15-33.json',
  '2020-01-12T14-22.json',
  '2022-07-07T15-11.json',
  '2022-12-05T14-07.json',
];
const SCRAPE_2021 = new URL('../../../../shared/data/real/pik_2021_all_projects/flats.csv', import.meta.url)
  .pathname;
const present = existsSync(SALARYEVO) && existsSync(SCRAPE_2021);
if (!present && process.env.CI) throw new Error(`the real data sets are missing: ${SALARYEVO}`);

describe.runIf(present)('golden: the real Salaryevo lists under the carry-forward limit (§10.1)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let projectId = 0;
  beforeAll(async () => {
    const fresh = await freshDb('pglite');
    db = fresh.db;
    drop = fresh.drop;
    const results = await importBatch(
      new Importer(db, 2, 31),
      FILES.map((f) => () => readFileSnapshots(`${SALARYEVO}${f}`, { format: 'pik' })),
    );
    expect(results.map((r) => r.flats)).toEqual([923, 908, 380, 294]);
    [{ id: projectId }] = await db.query<{ id: number }>('select id from project');
  }, 120_000);
  afterAll(async () => drop?.());

  it('the gap is a gap: no count after the 31 carried days, and 2022-12-05 shows its 294 listed flats', async () => {
    const stats = await new StatsReader({ carry: 31 }).getProjectStats(db, {
      projectId,
      from: '2020-01-01',
      to: '2022-12-31',
    });
    const counts = new Map(stats.flatsCountList[0].points.map((p) => [p.date, p.count]));
    expect(counts.get('2020-02-12')).toBe(908);
    expect(counts.has('2020-02-13')).toBe(false);
    expect(counts.has('2021-06-01')).toBe(false);
    expect(counts.get('2022-07-07')).toBe(380);
    expect(counts.has('2022-08-08')).toBe(false);
    expect(counts.get('2022-12-05')).toBe(294);
    const points = stats.allRoomsData.points.map((p) => p.date);
    expect(points.filter((d) => d > '2020-02-12' && d < '2022-07-07')).toEqual([]);
    // the summary table of the last day: the 294 listed flats, not the 296 of five months before
    expect(stats.shortFlatSummaryList.reduce((n, r) => n + r.activeFlatsCount, 0)).toBe(294);
  });

  it('summaries carry gapDays; a price change across the gap is afterGap (the open summary pages)', async () => {
    const app = await buildApp({ db, config: loadConfig({ logLevel: 'silent', maxCarryDays: 31 }, {}) });
    try {
      const [{ id }] = await db.query<{ id: number }>(
        `select id from daily_summary where date = '2022-07-07'`,
      );
      const day = (await app.inject({ method: 'GET', url: `/api/summary/${id}` })).json();
      expect(day.projects[0]).toMatchObject({ gapDays: 907, afterGap: true, flatsCount: 380 });
      const page = (
        await app.inject({ method: 'GET', url: `/api/summary/${id}/project/${projectId}` })
      ).json();
      const up = page.events.filter((e: { kind: string }) => e.kind === 'PRICE_UP');
      expect(up).toHaveLength(1);
      expect(up[0]).toMatchObject({ gapDays: 907, afterGap: true });
      // NEW and REMOVED are not price changes: they carry the gap but are not "after a gap" changes
      expect(page.events.filter((e: { afterGap: boolean }) => e.afterGap)).toHaveLength(1);
      const [{ id: second }] = await db.query<{ id: number }>(
        `select id from daily_summary where date = '2020-01-12'`,
      );
      const near = (await app.inject({ method: 'GET', url: `/api/summary/${second}` })).json();
      expect(near.projects[0]).toMatchObject({ gapDays: 2, afterGap: false });
    } finally {
      await app.close();
    }
  });

  it('the flats missing from the first list after the gap are removed there, not carried', async () => {
    const events = await db.query<{ day: string; kind: string; n: number }>(
      `select day::text, kind, count(*)::int as n from flat_event group by day, kind order by day, kind`,
    );
    const removed = events.filter((e) => e.kind === 'REMOVED').map((e) => [e.day, e.n]);
    expect(removed).toEqual([
      ['2022-07-07', 922],
      ['2022-12-05', 296],
    ]);
  });
});

describe.runIf(present)(
  'golden: the 2021 scrape of 57 PIK projects beside the Salaryevo API lists (§10.3)',
  () => {
    let db: Db;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const fresh = await freshDb('pglite');
      db = fresh.db;
      drop = fresh.drop;
      await importBatch(new Importer(db, 2, 31), [
        ...FILES.map((f) => () => readFileSnapshots(`${SALARYEVO}${f}`, { format: 'pik' })),
        () => readFileSnapshots(SCRAPE_2021, { date: '2021-01-15' }),
      ]);
    }, 180_000);
    afterAll(async () => drop?.());

    it('57 projects; «Дом сдан» and «Готовая квартира» are «Сдан» (DONE), apart from no date', async () => {
      const [{ projects }] = await db.query<{ projects: number }>(
        'select count(*)::int as projects from project',
      );
      expect(projects).toBe(57);
      const [done] = await db.query<{ projects: number; buildings: number; flats: number }>(
        `select count(distinct project_id)::int as projects, count(distinct (project_id, building))::int as buildings,
              count(*)::int as flats
       from flat_observation where snapshot_date = '2021-01-15' and present and settlement_date = '9999-12-31'`,
      );
      expect(done).toEqual({ projects: 31, buildings: 68, flats: 347 });
      const [{ id }] = await db.query<{ id: number }>(
        `select project_id as id from flat_observation where settlement_date = '9999-12-31' limit 1`,
      );
      const stats = await new StatsReader({ carry: 31 }).getProjectStats(db, {
        projectId: id,
        from: '2021-01-15',
        to: '2021-01-15',
      });
      expect(Object.keys(stats.allRoomsData.points[0].avgMeterPriceBySettlementDate)).toContain('DONE');
    });

    it('«Корпус 31» of the API and «Корпус 31» of the scrape are building «31» of one project', async () => {
      const rows = await db.query<{ building: string }>(
        `select distinct o.building from flat_observation o join project p on p.id = o.project_id
       where p.name = 'Саларьево парк' order by 1`,
      );
      const buildings = rows.map((r) => r.building);
      expect(buildings).toContain('31');
      expect(buildings.filter((b) => /^(корпус|корп\.|к\.)/i.test(b))).toEqual([]);
      const sources = await db.query<{ source: string }>(
        `select distinct s.source from snapshot s join project p on p.id = s.project_id
       where p.name = 'Саларьево парк' order by 1`,
      );
      expect(sources.map((s) => s.source)).toEqual(['pik', 'pik-csv']);
    });
  },
);
