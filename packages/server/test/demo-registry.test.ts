import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftsOf } from '../src/analytics/registry.js';
import type { Db } from '../src/db/driver.js';
import { planDemo } from '../src/demo/generate.js';
import { demoRegistryAnswers, demoRegistryDays } from '../src/demo/registry.js';
import { importSnapshots } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { stateOf } from '../src/registry/state.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyRegistryImport } from '../src/use-cases/registry.js';
import { freshDb } from './databases.js';

// Issue 44: the demo market has registry objects for its projects, so a newcomer sees the feature on the
// first start — a postponed date, one moved earlier, a problem flag, a registry-only project.

describe("the demo's registry", () => {
  const until = '2026-11-20';
  const plan = planDemo({ until, scale: 0.2 });
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDb('pglite'));
    // a few lists of each project over its history (its place, and buildings sold out by now), then the
    // registry through its door
    const importer = new Importer(db, 3, 7);
    const n = plan.days.length;
    for (const k of [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n - 1])
      await importSnapshots(
        importer,
        plan.projects.map((_, p) => validateSnapshot(plan.snapshot(p, k), 'api', 'демо')),
      );
    const results = await applyRegistryImport(
      commandHost(db, importer),
      demoRegistryAnswers(plan, until),
      cliActor(),
    );
    expect(results.map((r) => r.day)).toEqual(demoRegistryDays(until));
    expect(results.every((r) => r.refused.length === 0)).toBe(true);
  });
  afterAll(() => drop());

  const objects = async () =>
    db.query<{
      obj_id: number;
      project: string | null;
      building: string | null;
      match: string;
      state: unknown;
    }>(
      `select o.obj_id, p.name as project, o.building, o.match, o.state
       from registry_object o left join project p on p.id = o.project_id order by o.obj_id`,
    );
  const history = async (objId: number) =>
    (
      await db.query<{ day: string; state: unknown }>(
        'select day::text, state from registry_state where obj_id = $1 order by day',
        [objId],
      )
    ).map((s) => ({ day: s.day, eff: stateOf(s.state).eff }));

  it("matches every object of our projects to its project and building; the registry's own project stays apart", async () => {
    const rows = await objects();
    const ours = rows.filter((r) => r.obj_id < 79_000);
    expect(ours.length).toBeGreaterThan(plan.projects.length);
    for (const r of ours) {
      expect(r.match, `объект ${r.obj_id}`).toBe('auto');
      expect(r.building, `объект ${r.obj_id} ${r.project}`).toMatch(/^\d$/);
    }
    expect(rows.filter((r) => r.obj_id > 79_000).map((r) => [r.obj_id, r.project, r.match])).toEqual([
      [79_001, null, 'none'],
      [79_002, null, 'none'],
    ]);
  });

  it('has a completion moved later twice, one moved earlier, and a problem flag', async () => {
    const rows = await objects();
    const byDeveloper = (name: string) =>
      rows.find((r) => stateOf(r.state).eff.devName === `СЗ ${name}`)!.obj_id;
    const later = shiftsOf(await history(byDeveloper('Пионер'))).filter((s) => s.field === 'ready');
    expect(later.map((s) => s.months)).toEqual([6, 3]);
    const earlier = shiftsOf(await history(byDeveloper('Эталон'))).filter((s) => s.field === 'ready');
    expect(earlier.map((s) => s.months)).toEqual([-3]);
    expect(rows.filter((r) => stateOf(r.state).eff.problem).map((r) => stateOf(r.state).eff.devName)).toEqual(
      ['СЗ ЛСР'],
    );
    // registered sales rise over the days
    const sold = (await history(byDeveloper('Пионер'))).map((s) => s.eff.salesRealised ?? 0);
    expect(sold.at(-1)!).toBeGreaterThan(sold[0]);
  });
});
