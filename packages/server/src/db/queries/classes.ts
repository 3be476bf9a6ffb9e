import type { Db } from '../driver.js';

// A project's class by hand and by the registry (DESIGN §12.3, migration 30), and what its origins read.

/** What a project's class is made of: the hand's and the registry's, its place and its last day with data. */
export interface ProjectClassRow {
  developer_id: number;
  name: string;
  last: string | null;
  hand_class: string | null;
  registry_class: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

export async function projectClassRow(db: Db, id: number): Promise<ProjectClassRow | undefined> {
  const [row] = await db.query<ProjectClassRow>(
    `select developer_id, name, last_snapshot_date::text as last, hand_class, registry_class, region, city,
       latitude, longitude
     from project where id = $1`,
    [id],
  );
  return row;
}

/** The project's class by hand, locked for a change (undefined: no such project). */
export async function lockedHandClass(
  db: Db,
  id: number,
): Promise<{ hand_class: string | null } | undefined> {
  const [row] = await db.query<{ hand_class: string | null }>(
    'select hand_class from project where id = $1 for update',
    [id],
  );
  return row;
}

/** A class set by hand (null: none), the class version counted up. */
export async function setHandClass(db: Db, id: number, cls: string | null): Promise<void> {
  await db.query('update project set hand_class = $2, class_version = class_version + 1 where id = $1', [
    id,
    cls,
  ]);
}
