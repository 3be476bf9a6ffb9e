import type { Db } from '../driver.js';

// A project's row as the acts lock and version it (DESIGN §11.1: `data_version` moves with every change of
// what its pages show; ETags and caches follow it).

/** Projects with a snapshot on or after `fromDate` (all when null), by id. */
export async function projectsSince(
  db: Db,
  fromDate: string | null,
): Promise<{ id: number; name: string }[]> {
  return db.query<{ id: number; name: string }>(
    `select id, name from project where $1::date is null or last_snapshot_date >= $1::date order by id`,
    [fromDate],
  );
}

/** Locks a project's row for the transaction (an import or a rebuild of it waits). */
export async function lockProject(tx: Db, id: number): Promise<void> {
  await tx.query('select id from project where id = $1 for update', [id]);
}

export async function bumpDataVersion(tx: Db, id: number): Promise<void> {
  await tx.query('update project set data_version = data_version + 1 where id = $1', [id]);
}

/** The data of every project as one mark: their count and the sum of their versions (the market's ETag). */
export async function marketDataMark(db: Db): Promise<string> {
  // a project's data, place and class (a hand edit, the registry's) and the registry's data: whatever an
  // answer kept per mark is made of (a class edit once left «Рынок»'s cached ranking with the old class)
  const [row] = await db.query<{ n: number; v: number; r: string | null }>(
    `select count(*)::int as n, coalesce(sum(data_version + place_version + class_version), 0)::bigint as v,
       (select value from app_meta where key = 'registry_version') as r
     from project`,
  );
  return `${row.n}.${row.v}.${row.r ?? 0}`;
}

/** Finds a developer by name (trimmed, case-insensitive) or creates it. */
export async function ensureDeveloper(db: Db, name: string): Promise<number> {
  const found = await db.query<{ id: number }>('select id from developer where lower(name) = lower($1)', [
    name,
  ]);
  if (found.length) return found[0].id;
  const [row] = await db.query<{ id: number }>(
    `insert into developer (name) values ($1)
     on conflict (lower(name)) do update set name = developer.name returning id`,
    [name],
  );
  return row.id;
}

export async function ensureProject(db: Db, developerId: number, name: string): Promise<number> {
  const found = await db.query<{ id: number }>(
    'select id from project where developer_id = $1 and lower(name) = lower($2)',
    [developerId, name],
  );
  if (found.length) return found[0].id;
  const [row] = await db.query<{ id: number }>(
    `insert into project (developer_id, name) values ($1, $2)
     on conflict (developer_id, lower(name)) do update set name = project.name returning id`,
    [developerId, name],
  );
  return row.id;
}

/** Locks a project's row for an import (imports of one project wait in turn); its data version. */
export async function lockProjectVersion(tx: Db, id: number): Promise<number> {
  const [{ data_version }] = await tx.query<{ data_version: number }>(
    'select data_version from project where id = $1 for update',
    [id],
  );
  return data_version;
}

/**
 * New flats of a project by external id, first seen on `day` (the list that brings them: keepFirstSeen
 * corrects the rare flat whose first presence the whole import puts elsewhere); their ids. Written here, a
 * first presence costs no update of every new flat after (100,000 of a feed: 4 s on the embedded database).
 */
export async function insertFlats(
  tx: Db,
  projectId: number,
  externalIds: string[],
  day: string,
): Promise<{ id: number; external_id: string }[]> {
  return tx.query<{ id: number; external_id: string }>(
    `insert into flat (project_id, external_id, first_seen) select $1, e, $3::date from unnest($2::text[]) as e
     returning id, external_id`,
    [projectId, externalIds, day],
  );
}

/** The snapshots an import applied (a day's list replaces the one it had). */
export async function saveSnapshots(
  tx: Db,
  projectId: number,
  lists: { date: string; flats: number; hash: string; source: string; complete: boolean }[],
): Promise<void> {
  await tx.query(
    `insert into snapshot (project_id, date, flats_count, content_hash, source, complete)
     select $1, * from unnest($2::date[], $3::int[], $4::text[], $5::text[], $6::bool[])
     on conflict (project_id, date) do update set flats_count = excluded.flats_count,
       content_hash = excluded.content_hash, source = excluded.source, complete = excluded.complete,
       imported_at = now()`,
    [
      projectId,
      lists.map((l) => l.date),
      lists.map((l) => l.flats),
      lists.map((l) => l.hash),
      lists.map((l) => l.source),
      lists.map((l) => l.complete),
    ],
  );
}

/** A project's data moved: its version up, its first and last days as the snapshots now say. */
export async function markProjectImported(tx: Db, id: number, first: string, last: string): Promise<void> {
  await tx.query(
    `update project set data_version = data_version + 1, first_snapshot_date = $2, last_snapshot_date = $3
     where id = $1`,
    [id, first, last],
  );
}

/** A project's data version; null when there is no such project. */
export async function projectDataVersion(db: Db, id: number): Promise<number | null> {
  const [row] = await db.query<{ data_version: number }>('select data_version from project where id = $1', [
    id,
  ]);
  return row ? row.data_version : null;
}

/** A project's snapshot days (days since 1970-01-01), in order. */
export async function snapshotDays(db: Db, projectId: number): Promise<number[]> {
  const rows = await db.textRows(
    `select date - date '1970-01-01' from snapshot where project_id = $1 order by date`,
    [projectId],
  );
  return rows.map((r) => Number(r[0]));
}

/** Each flat's first presence (days since 1970-01-01): of `ids`, or of every flat of the project. */
export async function firstSeenDays(db: Db, projectId: number, ids?: number[]): Promise<Map<number, number>> {
  const rows = await db.textRows(
    `select id, first_seen - date '1970-01-01' from flat
     where project_id = $1 and first_seen is not null${ids ? ' and id = any($2::int[])' : ''}`,
    ids ? [projectId, ids] : [projectId],
  );
  return new Map(rows.map((r) => [Number(r[0]), Number(r[1])]));
}

/**
 * The first of `buildings` (in their order) with a flat on sale on day `at` (`last`: the project's last
 * day, where a running segment ends): an index lookup a building that stops at its first flat on sale.
 */
export async function firstBuildingOnSale(
  db: Db,
  projectId: number,
  buildings: string[],
  at: string,
  last: string,
): Promise<string | undefined> {
  const [first] = await db.query<{ b: string }>(
    `select u.b from unnest($2::text[]) with ordinality as u(b, i)
     where exists (select 1 from flat_segment s where s.project_id = $1 and s.building = u.b
                     and s.start_day <= $3::date and coalesce(s.end_day, $4::date) >= $3::date)
     order by u.i limit 1`,
    [projectId, buildings, at, last],
  );
  return first?.b;
}

/** A project's data version and the span of its snapshots; null when there is no such project. */
export async function projectSpanOf(
  db: Db,
  id: number,
): Promise<{
  data_version: number;
  first_snapshot_date: string | null;
  last_snapshot_date: string | null;
} | null> {
  const [row] = await db.query<{
    data_version: number;
    first_snapshot_date: string | null;
    last_snapshot_date: string | null;
  }>('select data_version, first_snapshot_date, last_snapshot_date from project where id = $1', [id]);
  return row ?? null;
}
