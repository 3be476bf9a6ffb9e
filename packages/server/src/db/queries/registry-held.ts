import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The registry's held reads' inputs (read/registry-held.ts): its version and every object's kept facts and history.

/** What the registry's held reads are made of changed: a counter the reads compare (read/registry-held.ts). */
export async function bumpRegistryVersion(db: Db): Promise<void> {
  await db.query(
    `insert into app_meta (key, value) values ('registry_version', '1')
     on conflict (key) do update set value = (app_meta.value::bigint + 1)::text`,
  );
}

export async function registryVersion(db: Db): Promise<string> {
  const [row] = await db.query<{ value: string }>(
    "select value from app_meta where key = 'registry_version'",
  );
  return row?.value ?? '0';
}

/** Every object as the held reads take it: its row and kept figures' inputs, no state. */
export interface HeldObjectRow {
  obj_id: number;
  first_day: string;
  last_day: string;
  project_id: number | null;
  building: string | null;
  match: 'auto' | 'hand' | 'none';
  facts: unknown;
}

export async function heldObjectRows(db: Db): Promise<HeldObjectRow[]> {
  return db.query<HeldObjectRow>(
    `select obj_id, first_day::text, last_day::text, project_id, building, match, coalesce(facts, state -> 'eff') as facts
     from registry_object order by obj_id`,
  );
}

/** Every object's kept light history, base64 of its bytes (db/kept-history.ts; null: not made yet). */
export async function heldHistoryRows(db: Db): Promise<{ obj_id: number; history: string | null }[]> {
  return db.query<{ obj_id: number; history: string | null }>(
    `select obj_id, ${base64('history')} from registry_object order by obj_id`,
  );
}
