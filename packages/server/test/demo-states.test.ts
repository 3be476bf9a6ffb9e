import { describe, expect, it } from 'vitest';
import { DEFERRED_INDEXES } from '../src/db/deferred-indexes.js';
import { planDemo } from '../src/demo/generate.js';
import { runDemo } from '../src/demo/run.js';
import { importSnapshots } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { fromDay, toDay } from '../src/lib/days.js';
import { freshDb } from './databases.js';

// Issue 14 item 7: the demo market has what real lists have, so the dashboard shows every new state on
// first start — reserved lots, a month-long gap, a partial scan, a building renamed between sources,
// delivered buildings.

type RawFlat = { status: string; building: string; settlementDate: string | null };

describe('the demo market shows what real lists have (DESIGN §10)', () => {
  const plan = planDemo({ until: '2026-11-20', scale: 0.3 });
  const k = plan.projects.findIndex((p) => p.developer === 'Пионер' && p.partialOn !== undefined);
  /** the list of the first calendar day on or after `iso` (lists were weekly before mid-2025) */
  const flatsOn = (p: number, iso: string) =>
    plan.snapshot(
      p,
      plan.days.findIndex((d) => d >= toDay(iso)),
    ).flats as RawFlat[];

  it('the default developer’s first project has the gap, the renamed buildings and the partial scan', () => {
    expect(k).toBeGreaterThanOrEqual(0);
    const first = plan.projects
      .filter((p) => p.developer === 'Пионер')
      .sort((a, b) => a.name.localeCompare(b.name, 'ru'))[0];
    expect(plan.projects[k]).toBe(first);
    // no list for six weeks of 2024
    const listed = plan.days.filter((d) => (plan.snapshot(k, plan.days.indexOf(d)).flats as []).length > 0);
    const gap = listed.map((d, i) => (i ? d - listed[i - 1] : 0)).reduce((a, b) => Math.max(a, b), 0);
    expect(gap).toBeGreaterThan(31);
    // named «Корпус N» after it, plain numbers before
    const beforeGap = flatsOn(k, '2024-03-25');
    expect(beforeGap.length).toBeGreaterThan(0);
    expect(beforeGap.every((f) => /^\d+$/.test(f.building))).toBe(true);
    expect(flatsOn(k, '2024-05-13').every((f) => f.building.startsWith('Корпус '))).toBe(true);
    // the partial scan lists a fifth of the day before
    const day = fromDay(first.partialOn!);
    const before = fromDay(first.partialOn! - 1);
    expect(flatsOn(k, day).length).toBeLessThan(flatsOn(k, before).length / 2);
  });

  it('about a tenth of the lots are reserved, and some buildings are delivered («Дом сдан»)', () => {
    const lots = plan.projects.flatMap((_, p) => flatsOn(p, '2026-11-20'));
    const reserved = lots.filter((f) => f.status === 'RESERVED').length / lots.length;
    expect(reserved).toBeGreaterThan(0.05);
    expect(reserved).toBeLessThan(0.15);
    expect(lots.some((f) => f.settlementDate === 'Дом сдан')).toBe(true);
  });

  it('imported, the partial scan is flagged and removes nothing; «Корпус N» is one building with N', async () => {
    const { db, drop } = await freshDb('pglite');
    try {
      const p = plan.projects[k];
      const from = p.partialOn! - 10;
      const to = p.partialOn! + 3;
      const snapshots = plan.days
        .map((d, i) => ({ d, i }))
        .filter(({ d }) => d >= from && d <= to)
        .map(({ i }) => validateSnapshot(plan.snapshot(k, i), { file: 'demo' }));
      const results = await importSnapshots(new Importer(db, 2), snapshots);
      const partial = results.filter((r) => r.partial);
      expect(partial.map((r) => r.date)).toEqual([fromDay(p.partialOn!)]);
      expect(partial[0].events.REMOVED).toBe(0);
      const buildings = await db.query<{ building: string }>(
        'select distinct building from flat_observation where building like $1',
        ['Корпус%'],
      );
      expect(buildings).toEqual([]);
    } finally {
      await drop();
    }
  });
});

describe('the demo into an empty database', () => {
  it('is loaded with the timeline’s secondary indexes dropped, and leaves every one of them built', async () => {
    const { db, drop } = await freshDb('pglite');
    try {
      const indexes = async () =>
        (
          await db.query<{ indexname: string }>(
            'select indexname from pg_indexes where indexname = any($1::text[]) order by indexname',
            [DEFERRED_INDEXES.map((i) => i.name)],
          )
        ).map((r) => r.indexname);
      const all = await indexes();
      expect(all).toHaveLength(DEFERRED_INDEXES.length);
      // what the import sees while it writes the first project's timeline
      const importer = new Importer(db, 2, 31);
      const seen: string[][] = [];
      const batch = importer.applyProjectBatch.bind(importer);
      importer.applyProjectBatch = async (...args) => {
        seen.push(await indexes());
        return batch(...args);
      };
      const result = await runDemo(db, importer, {
        until: '2026-11-20',
        from: '2026-10-01',
        scale: 0.05,
        developers: 1,
      });
      expect(result.snapshots).toBeGreaterThan(0);
      expect(seen.length).toBe(result.projects);
      expect(seen.every((s) => s.length === 0)).toBe(true);
      expect(await indexes()).toEqual(all);
      const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from flat_event');
      expect(n).toBeGreaterThan(0);
    } finally {
      await drop();
    }
  });
});
