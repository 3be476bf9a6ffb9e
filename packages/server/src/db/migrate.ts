import { ensureDeferredIndexes } from './deferred-indexes.js';
import type { Db } from './driver.js';
import { MIGRATIONS } from './migrations.js';

/**
 * Applies pending migrations (up to `upTo`, for tests of a migration), each in its own transaction; safe
 * to call at every start.
 */
export async function migrate(db: Db, upTo = Number.POSITIVE_INFINITY): Promise<number> {
  await db.exec(`create table if not exists schema_migration (
    id int primary key, name text not null, applied_at timestamptz not null default now())`);
  const done = new Set((await db.query<{ id: number }>('select id from schema_migration')).map((r) => r.id));
  let applied = 0;
  for (const m of MIGRATIONS) {
    if (done.has(m.id) || m.id > upTo) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('insert into schema_migration (id, name) values ($1, $2)', [m.id, m.name]);
    });
    applied++;
  }
  // a bulk load stopped half way may have left these dropped (they are the schema's once every migration ran)
  if (upTo >= MIGRATIONS[MIGRATIONS.length - 1].id) await ensureDeferredIndexes(db);
  return applied;
}

/**
 * Table statistics after a bulk load. PostgreSQL plans by them, and autovacuum gets to a freshly loaded
 * table only after a while: until then a discount query on the demo market took 51 s instead of 14 ms.
 * PGlite has no autovacuum at all: without statistics it sorted every event of a range for each page of
 * the CSV export (440 ms a page instead of 60).
 */
/**
 * Observation rows the planner's statistics count (`pg_class.reltuples`; −1 when the table was never analyzed):
 * what an import's size is weighed against to tell a bulk load from a day's lists.
 */
export async function plannedObservations(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "select reltuples::float8 as n from pg_class where oid = 'flat_observation'::regclass",
  );
  return Number(row?.n ?? -1);
}

export async function analyzeAfterBulkLoad(db: Db): Promise<void> {
  // a filter's pace summaries of every project together again (migration 41): the first round after a bulk
  // load reads them filter by filter, cold (~4 s at the reference market's 5,000 projects)
  await db.exec('cluster pace_summary using pace_summary_by_filter');
  await db.exec(
    'analyze snapshot, flat, flat_observation, flat_segment, series_month, flat_event, summary_project, pace_summary, rank_month, project_latest',
  );
}

/** The ids of the migrations a database has had applied; none when it has no migration table yet. */
export async function appliedMigrations(db: Db): Promise<number[]> {
  const [table] = await db.query<{ t: string | null }>("select to_regclass('schema_migration')::text as t");
  if (!table?.t) return [];
  return (await db.query<{ id: number }>('select id from schema_migration')).map((r) => Number(r.id));
}
