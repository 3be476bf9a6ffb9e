import type { StateAt } from '../../analytics/registry.js';
import type { Db } from '../driver.js';
import { base64, bytes } from '../kept.js';
import { decodeHistory } from '../kept-history.js';

// The state registry's objects, their states by day, their raw answers and the days imported (DESIGN §12.3,
// migration 29). The states are written by derive/registry.ts; read by read/registry-reader.ts.

export interface RawRow {
  kind: string;
  day: string;
  body: Uint8Array;
}

/** The days each kind of answer about the object came, in order (days since 1970-01-01). */
export async function seenDays(db: Db, objId: number): Promise<Map<string, number[]>> {
  const rows = await db.query<{ kind: string; days: number[] }>(
    'select kind, days from registry_seen where obj_id = $1',
    [objId],
  );
  return new Map(rows.map((r) => [r.kind, r.days.map(Number)]));
}

export async function putSeen(db: Db, objId: number, kind: string, days: number[]): Promise<void> {
  await db.query(
    `insert into registry_seen (obj_id, kind, days) values ($1, $2, $3::int[])
     on conflict (obj_id, kind) do update set days = excluded.days`,
    [objId, kind, days],
  );
}

/** The object's latest raw answers of `kind` on or before `day` (at most three), latest first. */
export async function rawsUpTo(
  db: Db,
  objId: number,
  kind: string,
  day: string,
): Promise<{ day: string; hash: string }[]> {
  return db.query<{ day: string; hash: string }>(
    `select day::text, hash from registry_raw where obj_id = $1 and kind = $2 and day <= $3::date
     order by day desc limit 3`,
    [objId, kind, day],
  );
}

export async function rawBody(db: Db, objId: number, kind: string, day: string): Promise<Buffer> {
  const [row] = await db.query<{ body: Buffer }>(
    'select body from registry_raw where obj_id = $1 and kind = $2 and day = $3::date',
    [objId, kind, day],
  );
  return Buffer.from(row.body);
}

export async function putRaw(
  db: Db,
  objId: number,
  kind: string,
  day: string,
  hash: string,
  body: Buffer,
): Promise<void> {
  await db.query(
    `insert into registry_raw (obj_id, kind, day, hash, body) values ($1, $2, $3::date, $4, $5)
     on conflict (obj_id, kind, day) do update set hash = excluded.hash, body = excluded.body`,
    [objId, kind, day, hash, body],
  );
}

export async function deleteRaw(db: Db, objId: number, kind: string, day: string): Promise<void> {
  await db.query('delete from registry_raw where obj_id = $1 and kind = $2 and day = $3::date', [
    objId,
    kind,
    day,
  ]);
}

/** The object's raw answers from `day` on (all when null), by day. */
export async function rawsFrom(db: Db, objId: number, day: string | null): Promise<RawRow[]> {
  return db.query<RawRow>(
    `select kind, day::text, body from registry_raw
     where obj_id = $1 and ($2::date is null or day >= $2::date) order by day`,
    [objId, day],
  );
}

/** The object's latest state before `day` (its stored JSON), if any. */
export async function stateBefore(db: Db, objId: number, day: string | null): Promise<unknown | null> {
  if (day === null) return null;
  const [row] = await db.query<{ state: unknown }>(
    'select state from registry_state where obj_id = $1 and day < $2::date order by day desc limit 1',
    [objId, day],
  );
  return row?.state ?? null;
}

/** Replaces the object's states from `day` on (all when null) with `rows`. */
export async function replaceStates(
  db: Db,
  objId: number,
  day: string | null,
  rows: { day: string; state: string }[],
): Promise<void> {
  await db.query('delete from registry_state where obj_id = $1 and ($2::date is null or day >= $2::date)', [
    objId,
    day,
  ]);
  if (rows.length === 0) return;
  await db.query(
    `insert into registry_state (obj_id, day, state)
     select $1, d, s::jsonb from unnest($2::date[], $3::text[]) as t(d, s)`,
    [objId, rows.map((r) => r.day), rows.map((r) => r.state)],
  );
}

/** The object's row made or brought up to date: its days seen and its latest state. */
export async function upsertObject(
  db: Db,
  objId: number,
  day: string,
  state: string,
  /** the kept figures' inputs (§11.1): the effective facts as JSON, the light history as bytes */
  facts: string,
  history: Buffer,
): Promise<void> {
  await db.query(
    `insert into registry_object (obj_id, first_day, last_day, state, facts, history)
     values ($1, $2::date, $2::date, $3::jsonb, $4::jsonb, $5)
     on conflict (obj_id) do update set first_day = least(registry_object.first_day, excluded.first_day),
       last_day = greatest(registry_object.last_day, excluded.last_day), state = excluded.state,
       facts = excluded.facts, history = excluded.history`,
    [objId, day, state, facts, history],
  );
}

/** The object's kept light history (null: not made yet, before migration 38's pass). */
export async function keptHistory(db: Db, objId: number): Promise<StateAt[] | null> {
  const [row] = await db.query<{ history: string | null }>(
    `select ${base64('history')} from registry_object where obj_id = $1`,
    [objId],
  );
  return row?.history == null ? null : decodeHistory(bytes(row.history));
}

/** The object's states before `day` (every one when null), in day order. */
export async function statesBefore(
  db: Db,
  objId: number,
  day: string | null,
): Promise<{ day: string; state: unknown }[]> {
  return db.query<{ day: string; state: unknown }>(
    `select day::text, state from registry_state where obj_id = $1 and ($2::date is null or day < $2::date)
     order by day`,
    [objId, day],
  );
}

/** The kept figures' inputs of an object written (migration 31's pass). */
export async function putKept(db: Db, objId: number, facts: string, history: Buffer): Promise<void> {
  await db.query('update registry_object set facts = $2::jsonb, history = $3 where obj_id = $1', [
    objId,
    facts,
    history,
  ]);
}

/** The object's latest state as its rows say (after a replay). */
export async function latestState(db: Db, objId: number): Promise<unknown | null> {
  const [row] = await db.query<{ state: unknown }>(
    'select state from registry_state where obj_id = $1 order by day desc limit 1',
    [objId],
  );
  return row?.state ?? null;
}

export async function saveRegistryDay(
  db: Db,
  day: string,
  objects: number,
  refused: { objId: number | null; source: string; message: string }[],
): Promise<void> {
  await db.query(
    `insert into registry_day (day, objects, refused) values ($1::date, $2, $3::jsonb)
     on conflict (day) do update set objects = excluded.objects, refused = excluded.refused, imported_at = now()`,
    [day, objects, JSON.stringify(refused)],
  );
}

/** Every object with raw answers, by id (a rebuild's list). */
export async function registryObjectIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ id: number }>('select distinct obj_id as id from registry_raw order by 1');
  return rows.map((r) => r.id);
}

/** Every object's id (matching them all after a project was added or moved). */
export async function allObjectIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ id: number }>('select obj_id as id from registry_object order by 1');
  return rows.map((r) => r.id);
}

export interface ObjectRow {
  obj_id: number;
  first_day: string;
  last_day: string;
  state: unknown;
  project_id: number | null;
  building: string | null;
  match: 'auto' | 'hand' | 'none';
  /** the kept light history, base64 of its bytes (db/kept-history.ts; null: not made yet) */
  history: string | null;
}

const OBJECT_COLUMNS = `o.obj_id, o.first_day::text, o.last_day::text, o.state, o.project_id, o.building, o.match, ${base64('o.history', 'history')}`;

/** A project's objects, by id. */
export async function objectsOfProject(db: Db, projectId: number): Promise<ObjectRow[]> {
  return db.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from registry_object o where o.project_id = $1 order by 1`,
    [projectId],
  );
}

/** The objects of a developer's projects, by id. */
export async function objectsOfDeveloper(db: Db, developerId: number): Promise<ObjectRow[]> {
  return db.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from registry_object o join project p on p.id = o.project_id
     where p.developer_id = $1 order by 1`,
    [developerId],
  );
}

/** The objects' states by day, in order, keyed by object. */
export async function statesOf(
  db: Db,
  ids: number[],
): Promise<Map<number, { day: string; state: unknown }[]>> {
  const rows = await db.query<{ obj_id: number; day: string; state: unknown }>(
    'select obj_id, day::text, state from registry_state where obj_id = any($1::int[]) order by obj_id, day',
    [ids],
  );
  const out = new Map<number, { day: string; state: unknown }[]>();
  for (const r of rows) {
    const list = out.get(r.obj_id) ?? [];
    list.push({ day: r.day, state: r.state });
    out.set(r.obj_id, list);
  }
  return out;
}

/** The registry's days imported, in order. */
export async function registryDays(db: Db): Promise<string[]> {
  const rows = await db.query<{ day: string }>('select day::text from registry_day order by 1');
  return rows.map((r) => r.day);
}

/** The object seen on `day` (its answers restated what was kept). */
export async function markSeen(db: Db, objId: number, day: string): Promise<void> {
  await db.query('update registry_object set last_day = greatest(last_day, $2::date) where obj_id = $1', [
    objId,
    day,
  ]);
}

/** What the collection needs to know of listed objects to ask only for what is due (collect/registry-collector.ts). */
export interface DueRow {
  obj_id: number;
  /** the hash of the object's latest kept list entry before `day` */
  list_hash: string | null;
  /** the day that entry came (the list entry's latest change before `day`) */
  list_day: string | null;
  /** the latest day on or before `day` a detail came (days since 1970-01-01) */
  detail_day: number | null;
}

export async function dueRows(db: Db, ids: number[], day: string, dayNumber: number): Promise<DueRow[]> {
  if (ids.length === 0) return [];
  return db.query<DueRow>(
    `select o.obj_id,
       (select hash from registry_raw r where r.obj_id = o.obj_id and r.kind = 'list' and r.day < $2::date
         order by r.day desc limit 1) as list_hash,
       (select max(r.day)::text from registry_raw r where r.obj_id = o.obj_id and r.kind = 'list'
         and r.day < $2::date) as list_day,
       (select max(d) from registry_seen s, unnest(s.days) d where s.obj_id = o.obj_id and s.kind = 'detail'
         and d <= $3) as detail_day
     from unnest($1::int[]) as o(obj_id)`,
    [ids, day, dayNumber],
  );
}

/** The objects no project has (registry-only), by id. */
export async function unmatchedObjects(db: Db): Promise<ObjectRow[]> {
  return db.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from registry_object o where o.project_id is null order by 1`,
  );
}
