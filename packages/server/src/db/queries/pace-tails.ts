import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The pace summaries' tails and the changes made on top of each data version (migration 40,
// analytics/pace-tail.ts): written by each import with its summaries, read by the market's kept spans.

/** A project's tails, by variant; `body` as base64 (db/kept.ts bytes). */
export async function paceTailsOf(
  db: Db,
  projectId: number,
): Promise<{ status: string; rooms: string; whole: boolean; body: string }[]> {
  return db.query(`select status, rooms, whole, ${base64('body')} from pace_tail where project_id = $1`, [
    projectId,
  ]);
}

export async function savePaceTails(
  db: Db,
  projectId: number,
  tails: { status: string; rooms: string; whole: boolean; body: Buffer }[],
): Promise<void> {
  if (tails.length === 0) return;
  await db.query(
    `insert into pace_tail (project_id, status, rooms, whole, body)
     select $1, * from unnest($2::text[], $3::text[], $4::bool[], $5::bytea[])
     on conflict (project_id, status, rooms) do update set whole = excluded.whole, body = excluded.body`,
    [
      projectId,
      tails.map((t) => t.status),
      tails.map((t) => t.rooms),
      tails.map((t) => t.whole),
      tails.map((t) => t.body),
    ],
  );
}

/**
 * Notes a change of the project's summaries made on top of its data version now (the act that makes it
 * moves the version once it is done, in the same transaction): the first day whose points it may move.
 */
export async function notePaceChange(db: Db, projectId: number, fromDay: string): Promise<void> {
  await db.query(
    `insert into pace_change (project_id, version, from_day)
     select id, data_version, $2::date from project where id = $1
     on conflict (project_id, version) do update set from_day = least(pace_change.from_day, excluded.from_day)`,
    [projectId, fromDay],
  );
}

/** The tails of a variant for `ids`: [project, whole (1) or not (0), body] as bytes. */
export async function paceTailsFor(
  db: Db,
  status: string,
  rooms: string,
  ids: number[],
): Promise<[number, number, Uint8Array][]> {
  return (await db.binaryRows(
    `select project_id, whole::int, body from pace_tail
     where status = $1 and rooms = $2 and project_id = any($3::int[])`,
    [status, rooms, ids],
    ['int', 'int', 'bytea'],
  )) as [number, number, Uint8Array][];
}

/** The changes on top of each data version still noted: [project, version, day (days since 1970)]. */
export async function paceChanges(db: Db): Promise<[number, number, number][]> {
  const rows = await db.query<{ p: number; v: number; d: number }>(
    `select project_id as p, version as v, from_day - date '1970-01-01' as d from pace_change`,
  );
  return rows.map((r) => [r.p, r.v, r.d]);
}

/** Forgets the changes below each project's version a round made every span from (`ids`, `versions`). */
export async function forgetPaceChanges(db: Db, ids: number[], versions: number[]): Promise<void> {
  await db.query(
    `delete from pace_change c using unnest($1::int[], $2::int[]) as v(p, version)
     where c.project_id = v.p and c.version < v.version`,
    [ids, versions],
  );
}
