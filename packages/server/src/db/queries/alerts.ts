import type { EventKind, Facing, RoomGroup } from '@cena-metra/contract';
import type { Db } from '../driver.js';

// What the alerts of watchlists are computed from and kept in (DESIGN §10.7, issue 17): the watched
// projects whose data changed since the cursor, their watches and events, the alerts and the cursor.

/** A watch as stored. */
export interface WatchRow {
  id: number;
  user_id: number;
  flat_id: number | null;
  building: string | null;
  rooms: RoomGroup;
  max_price: number | null;
  finish: Facing | null;
  rules: string;
  since: string;
}

/** The watched projects whose data version moved since their alerts were last computed. */
export async function projectsToAlert(
  db: Db,
): Promise<{ id: number; data_version: number; through: string | null; last: string | null }[]> {
  return db.query(
    `select p.id, p.data_version, c.through::text as through, p.last_snapshot_date::text as last from project p
     left join alert_cursor c on c.project_id = p.id
     where exists (select 1 from watch w where w.project_id = p.id)
       and c.data_version is distinct from p.data_version
     order by p.id`,
  );
}

export async function watchRowsOf(
  db: Db,
  projectIds: number[],
): Promise<(WatchRow & { project_id: number })[]> {
  return db.query<WatchRow & { project_id: number }>(
    `select id, user_id, project_id, flat_id, building, rooms, max_price, finish, rules, since::text as since
     from watch where project_id = any($1::int[]) order by id`,
    [projectIds],
  );
}

/** An event as the alerts read it. */
export interface AlertEventRow {
  project_id: number;
  day: string;
  flat_id: number;
  kind: EventKind;
  building: string;
  rooms: number;
  area: number;
  facing: Facing;
  old_price: number | null;
  new_price: number | null;
  change_percent: number | null;
}

/** Each project's events from its day in `froms` on (an area's change is no alert). */
export async function eventsToAlert(db: Db, projectIds: number[], froms: string[]): Promise<AlertEventRow[]> {
  return db.query<AlertEventRow>(
    `select e.project_id, e.day::text as day, e.flat_id, e.kind, e.building, e.rooms, e.area, e.facing,
       e.old_price, e.new_price, e.change_percent
     from unnest($1::int[], $2::date[]) as t(p, d)
     join flat_event e on e.project_id = t.p and e.day >= t.d
     where e.kind <> 'AREA_CHANGED' order by e.project_id, e.day, e.flat_id`,
    [projectIds, froms],
  );
}

/** The day each of `flatIds` was first seen (those never seen are left out). */
export async function firstSeenOf(
  db: Db,
  projectIds: number[],
  flatIds: number[],
): Promise<{ flat_id: number; first: string }[]> {
  return db.query<{ flat_id: number; first: string }>(
    `select id as flat_id, first_seen::text as first from flat
     where project_id = any($1::int[]) and id = any($2::int[]) and first_seen is not null`,
    [projectIds, flatIds],
  );
}

/** Alerts as columns, one entry per alert. */
export interface AlertColumns {
  watchIds: number[];
  userIds: number[];
  projectIds: number[];
  kinds: string[];
  days: string[];
  flatIds: number[];
  buildings: string[];
  rooms: number[];
  areas: number[];
  oldPrices: (number | null)[];
  newPrices: (number | null)[];
  changePercents: (number | null)[];
}

/** Stores alerts once per (watch, day, flat, kind); returns how many were new. */
export async function insertAlerts(db: Db, a: AlertColumns): Promise<number> {
  const inserted = await db.query(
    `insert into watch_alert (watch_id, user_id, project_id, kind, day, flat_id, building, rooms, area,
       old_price, new_price, change_percent)
     select * from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::date[], $6::int[], $7::text[],
       $8::int[], $9::float8[], $10::bigint[], $11::bigint[], $12::float8[])
     on conflict (watch_id, day, flat_id, kind) do nothing returning id`,
    [
      a.watchIds,
      a.userIds,
      a.projectIds,
      a.kinds,
      a.days,
      a.flatIds,
      a.buildings,
      a.rooms,
      a.areas,
      a.oldPrices,
      a.newPrices,
      a.changePercents,
    ],
  );
  return inserted.length;
}

/** Each project's cursor: the data version computed and the last day its events were read through. */
export async function advanceAlertCursors(
  db: Db,
  projectIds: number[],
  versions: number[],
  throughs: string[],
): Promise<void> {
  await db.query(
    `insert into alert_cursor (project_id, data_version, through)
     select * from unnest($1::int[], $2::int[], $3::date[])
     on conflict (project_id) do update set data_version = excluded.data_version, through = excluded.through`,
    [projectIds, versions, throughs],
  );
}
