import type { Db } from '../driver.js';

const DEMO_KEY = 'demo_data';

/** True while the database holds generated demo data (the UI says «демо-данные»). */
export async function isDemoData(db: Db): Promise<boolean> {
  const [row] = await db.query<{ value: string }>('select value from app_meta where key = $1', [DEMO_KEY]);
  return row?.value === '1';
}

export async function markDemoData(db: Db, on: boolean): Promise<void> {
  await db.query(
    `insert into app_meta (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [DEMO_KEY, on ? '1' : '0'],
  );
}

/** The database server's version (PostgreSQL's `server_version`). */
export async function serverVersion(db: Db): Promise<string> {
  const [{ version }] = await db.query<{ version: string }>(
    "select current_setting('server_version') as version",
  );
  return version;
}

/** What a migration asks the next open to do (app_meta keys). */
const MARKS = `'rebuild_needed', 'ranks_by_month_needed', 'series_layout_needed', 'pace_parts_needed',
  'series_columns_needed', 'pace_form_needed', 'registry_class_needed',
  'registry_kept_needed', 'hedonic_months_needed', 'pace_tails_needed'`;

/** The marks migrations left for the next open, by key. */
export async function migrationMarks(db: Db): Promise<Map<string, string>> {
  const rows = await db.query<{ key: string; value: string }>(
    `select key, value from app_meta where key in (${MARKS})`,
  );
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function clearMigrationMarks(db: Db): Promise<void> {
  await db.query(`delete from app_meta where key in (${MARKS})`);
}

const DEMO_SOURCES_KEY = 'demo_sources';

/** Whether the demo's sources were registered once (then only their addresses follow the port). */
export async function demoSourcesRegistered(db: Db): Promise<boolean> {
  const [row] = await db.query('select 1 from app_meta where key = $1', [DEMO_SOURCES_KEY]);
  return row !== undefined;
}

export async function markDemoSourcesRegistered(db: Db): Promise<void> {
  await db.query(`insert into app_meta (key, value) values ($1, 'yes') on conflict (key) do nothing`, [
    DEMO_SOURCES_KEY,
  ]);
}
