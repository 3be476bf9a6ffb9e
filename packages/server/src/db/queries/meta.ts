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
