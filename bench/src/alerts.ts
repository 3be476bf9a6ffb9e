import type { openDb } from 'cena-metra/dist/src/db/driver.js';
import { migrate } from 'cena-metra/dist/src/db/migrate.js';
import { createRandom } from 'cena-metra/dist/src/demo/random.js';
import { Importer } from 'cena-metra/dist/src/ingest/importer.js';
import type { Snapshot } from 'cena-metra/dist/src/ingest/snapshot.js';
import { computeAlerts } from 'cena-metra/dist/src/watch/alerts.js';
import { benchSnapshots } from './market.js';
import type { Row } from './measure.js';

type Db = Awaited<ReturnType<typeof openDb>>;

const ROOM_GROUPS = ['all', 'studio', 'one', 'two', 'threeAndMore'];

/**
 * Issue 17's budget: the alerts of `watches` watched items (seven in ten flats, the rest segments with
 * random bounds, over 100 users) after one day's import of `projects` busy projects, ≤ 2 s.
 */
export async function alertsBench(
  db: Db,
  rows: Row[],
  note: (s: string) => void,
  at: string,
  options: { projects: number; flats: number; watches: number },
): Promise<void> {
  await migrate(db);
  const importer = new Importer(db, 2);
  note(`alerts${at}: ${options.projects} проектов × ${options.flats} квартир, 30 дней…`);
  const lastDays: Snapshot[] = [];
  for (let p = 0; p < options.projects; p++) {
    const snapshots = [
      ...benchSnapshots({
        flats: options.flats,
        days: 31,
        start: '2026-10-01',
        seed: 100 + p,
        developer: `Застройщик ${p % 8}`,
        project: `Проект ${p}`,
      }),
    ];
    lastDays.push(snapshots.pop()!);
    await importer.applyProjectBatch(`Застройщик ${p % 8}`, `Проект ${p}`, snapshots);
  }
  // 100 users (no password checks here: the rows alone) and their watched items from the next day on
  await db.query(
    `insert into app_user (username, password_hash) select 'watcher' || g, 'x' from generate_series(1, 100) g`,
  );
  const users = (
    await db.query<{ id: number }>("select id from app_user where username like 'watcher%'")
  ).map((r) => r.id);
  const flats = await db.query<{ id: number; project_id: number }>('select id, project_id from flat');
  const projects = (await db.query<{ id: number }>('select id from project')).map((r) => r.id);
  const random = createRandom(17);
  const pick = <T>(list: T[]) => list[random.int(0, list.length - 1)]!;
  const taken = new Set<string>();
  const values: unknown[][] = [];
  while (values.length < options.watches) {
    const user = pick(users);
    if (random.next() < 0.7) {
      const flat = pick(flats);
      if (taken.has(`${user}:${flat.id}`)) continue;
      taken.add(`${user}:${flat.id}`);
      values.push([user, 'flat', flat.project_id, flat.id, null, 'all', null, '{}']);
    } else
      values.push([
        user,
        'segment',
        pick(projects),
        null,
        random.next() < 0.5 ? String(1 + random.int(0, 9)) : null,
        pick(ROOM_GROUPS),
        random.next() < 0.5 ? 10_000_000 + random.int(0, 20) * 1_000_000 : null,
        JSON.stringify({ fresh: true, minChangePercent: random.next() < 0.3 ? 2 : null }),
      ]);
  }
  const col = (i: number) => values.map((v) => v[i]);
  await db.query(
    `insert into watch (user_id, kind, project_id, flat_id, building, rooms, max_price, rules, since)
     select u, k, p, f, b, r, m, j, '2026-10-31' from unnest($1::int[], $2::text[], $3::int[], $4::int[],
       $5::text[], $6::text[], $7::bigint[], $8::text[]) as t(u, k, p, f, b, r, m, j)`,
    [col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7)],
  );
  // the cursors as after the last import (nothing to say yet), then the day comes in
  await computeAlerts(db);
  const imported = performance.now();
  for (const [p, s] of lastDays.entries())
    await importer.applyProjectBatch(`Застройщик ${p % 8}`, `Проект ${p}`, [s]);
  const importMs = performance.now() - imported;
  const started = performance.now();
  const report = await computeAlerts(db);
  const alertsMs = performance.now() - started;
  rows.push(
    {
      what: `a day's import of ${options.projects} projects × ${options.flats.toLocaleString('en')} flats${at}`,
      value: `${(importMs / 1000).toFixed(1)} s`,
    },
    {
      what: `alerts for ${options.watches.toLocaleString('en')} watched items after it (${report.events} events → ${report.alerts} alerts)${at}`,
      value: `${alertsMs.toFixed(0)} ms`,
      budget: '≤ 2 s',
      ok: alertsMs <= 2000 && report.alerts > 0,
    },
  );
}
