import type { Db } from '../driver.js';

// Matching registry objects to our projects (registry/match.ts, use-cases/registry.ts): what it reads and writes,
// the hand links, and the projects' registry classes that follow.

/** Our projects as matching reads them (registry/match.ts). */
export async function projectsToMatch(
  db: Db,
): Promise<{ id: number; developer: string; name: string; lat: number | null; lon: number | null }[]> {
  return db.query(
    `select p.id, d.name as developer, p.name, p.latitude as lat, p.longitude as lon
     from project p join developer d on d.id = p.developer_id order by p.id`,
  );
}

/** The building keys (§10.3) of several projects at once, by project. */
export async function buildingKeysOf(db: Db, projectIds: number[]): Promise<Map<number, string[]>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.query<{ project_id: number; keys: string[] }>(
    `select project_id, array_agg(distinct building order by building) as keys from flat_segment
     where project_id = any($1::int[]) group by project_id`,
    [projectIds],
  );
  return new Map(rows.map((r) => [r.project_id, r.keys]));
}

/** An object as matching reads it: its effective facts, its match now, its hand link. */
export interface ObjectToMatch {
  obj_id: number;
  /** the effective facts (the kept ones; the state's before migration 31's pass) */
  facts: unknown;
  project_id: number | null;
  building: string | null;
  match: 'auto' | 'hand' | 'none';
  /** a hand link (undefined: none; null: unlinked by hand) */
  link: number | null | undefined;
  linked: boolean;
}

/** The objects as matching reads them, by id. */
export async function objectsToMatch(db: Db, ids: number[]): Promise<ObjectToMatch[]> {
  return db.query<ObjectToMatch>(
    `select o.obj_id, coalesce(o.facts, o.state -> 'eff') as facts, o.project_id, o.building, o.match,
       l.project_id as link, l.obj_id is not null as linked
     from registry_object o left join registry_link l on l.obj_id = o.obj_id
     where o.obj_id = any($1::int[]) order by o.obj_id`,
    [ids],
  );
}

export async function setMatch(
  db: Db,
  objId: number,
  projectId: number | null,
  building: string | null,
  match: 'auto' | 'hand' | 'none',
): Promise<void> {
  await db.query('update registry_object set project_id = $2, building = $3, match = $4 where obj_id = $1', [
    objId,
    projectId,
    building,
    match,
  ]);
}

/** A hand link (a project) or unlink (null) of an object, replacing any before. */
export async function putLink(db: Db, objId: number, projectId: number | null): Promise<void> {
  await db.query(
    `insert into registry_link (obj_id, project_id) values ($1, $2)
     on conflict (obj_id) do update set project_id = excluded.project_id, at = now()`,
    [objId, projectId],
  );
}

export async function deleteLink(db: Db, objId: number): Promise<void> {
  await db.query('delete from registry_link where obj_id = $1', [objId]);
}

/** How an object is matched now. */
export async function objectMatch(
  db: Db,
  objId: number,
): Promise<{
  objId: number;
  projectId: number | null;
  building: string | null;
  match: 'auto' | 'hand' | 'none';
}> {
  const [row] = await db.query<{
    objId: number;
    projectId: number | null;
    building: string | null;
    match: 'auto' | 'hand' | 'none';
  }>(
    'select obj_id as "objId", project_id as "projectId", building, match from registry_object where obj_id = $1',
    [objId],
  );
  return row;
}

/** The projects with a registry class kept, by id. */
export async function registryClasses(db: Db): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; registry_class: string }>(
    'select id, registry_class from project where registry_class is not null',
  );
  return new Map(rows.map((r) => [r.id, r.registry_class]));
}

/** A project's registry class kept (null: none), its class version counted up. */
export async function setRegistryClass(db: Db, projectId: number, cls: string | null): Promise<void> {
  await db.query('update project set registry_class = $2, class_version = class_version + 1 where id = $1', [
    projectId,
    cls,
  ]);
}
