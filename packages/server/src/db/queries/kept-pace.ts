import type { FlatEvent } from '../../analytics/events.js';
import type { FlatRecord } from '../../analytics/types.js';
import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// The kept pace summaries (DESIGN §10.5–10.6, §11.1) by year part, and the ranking's months (db/kept-rank.ts)
// made from them: read back, replaced from a part on, and the kept events the sweep starts from.

/** The kept NEW and REMOVED events from `from` on, by day and flat (rooms and status only). */
export async function arrivalsAndRemovals(
  db: Db,
  projectId: number,
  from: string,
): Promise<
  { d: number; flat_id: number; kind: FlatEvent['kind']; rooms: number; status: FlatRecord['status'] }[]
> {
  return db.query(
    `select day - date '1970-01-01' as d, flat_id, kind, rooms, status from flat_event
     where project_id = $1 and day >= $2::date and kind in ('NEW', 'REMOVED') order by day, flat_id`,
    [projectId, from],
  );
}

/** The kept summaries' parts from `fromPart` on, by variant and part; `body` as base64 (db/kept.ts bytes). */
export async function paceSummaryParts(
  db: Db,
  projectId: number,
  fromPart: string,
): Promise<{ status: string; rooms: string; body: string }[]> {
  return db.query<{ status: string; rooms: string; body: string }>(
    `select status, rooms, ${base64('body')} from pace_summary
     where project_id = $1 and part >= $2::date order by status, rooms, part`,
    [projectId, fromPart],
  );
}

/** Removes a project's summary parts from `fromPart` on (all of them when null). */
export async function deletePaceParts(db: Db, projectId: number, fromPart: string | null): Promise<void> {
  if (fromPart === null) await db.query('delete from pace_summary where project_id = $1', [projectId]);
  else
    await db.query('delete from pace_summary where project_id = $1 and part >= $2::date', [
      projectId,
      fromPart,
    ]);
}

export async function insertPaceParts(
  db: Db,
  projectId: number,
  parts: { status: string; rooms: string; part: string; body: Buffer }[],
): Promise<void> {
  if (parts.length === 0) return;
  const params: unknown[] = [projectId];
  const values = parts.map((p) => {
    params.push(p.status, p.rooms, p.part, p.body);
    const at = params.length;
    return `($1, $${at - 3}, $${at - 2}, $${at - 1}::date, $${at})`;
  });
  await db.query(
    `insert into pace_summary (project_id, status, rooms, part, body) values ${values.join(', ')}`,
    params,
  );
}

/** The projects with kept summaries, by id. */
export async function projectsWithPace(db: Db): Promise<{ id: number }[]> {
  return db.query<{ id: number }>('select distinct project_id as id from pace_summary order by 1');
}

/** A month of the ranking's form as stored. */
export interface RankMonthRow {
  status: string;
  month: string;
  reach: string;
  body: Buffer;
  hash: string;
}

/** The kept months' hashes from `since` on, keyed `status:month` (the month in days since 1970-01-01). */
export async function rankMonthHashes(
  db: Db,
  projectId: number,
  since: string,
): Promise<Map<string, string>> {
  const rows = await db.query<{ status: string; m: number; hash: string }>(
    `select status, month - date '1970-01-01' as m, hash from rank_month
     where project_id = $1 and month >= $2::date`,
    [projectId, since],
  );
  return new Map(rows.map((r) => [`${r.status}:${r.m}`, r.hash]));
}

/** Drops the months `gone` (a month in days since 1970-01-01) and writes `fresh`. */
export async function replaceRankMonths(
  db: Db,
  projectId: number,
  gone: { status: string; m: number }[],
  fresh: RankMonthRow[],
): Promise<void> {
  if (gone.length)
    await db.query(
      `delete from rank_month r using unnest($2::text[], $3::int[]) as g(status, m)
       where r.project_id = $1 and r.status = g.status and r.month = date '1970-01-01' + g.m`,
      [projectId, gone.map((g) => g.status), gone.map((g) => g.m)],
    );
  if (fresh.length === 0) return;
  const params: unknown[] = [projectId];
  const values = fresh.map((r) => {
    params.push(r.status, r.month, r.reach, r.body, r.hash);
    const at = params.length;
    return `($1, $${at - 4}, $${at - 3}::date, $${at - 2}::date, $${at - 1}, $${at})`;
  });
  await db.query(
    `insert into rank_month (project_id, status, month, reach, body, hash) values ${values.join(', ')}`,
    params,
  );
}

/**
 * Every kept NEW and REMOVED event of a project as text rows, by day and flat: day, flat, kind, and the
 * fields the pace filters read (building, rooms, area, status, facing, settlement date).
 */
export async function arrivalAndRemovalRows(db: Db, projectId: number): Promise<(string | null)[][]> {
  return db.textRows(
    `select day - date '1970-01-01', flat_id, kind, building, rooms, area, status, facing, settlement_date
     from flat_event where project_id = $1 and kind in ('NEW', 'REMOVED') order by day, flat_id`,
    [projectId],
  );
}

/**
 * The kept summaries' parts of a variant for `ids`, as bytes (a filter of the reference market's 5,000
 * projects is ~68 MB: its base64 text took twice the time to come): each project's parts, in order, handed to
 * `each` as soon as they have all come — in project order, while the rest are still being read.
 */
export async function paceSummariesEach(
  db: Db,
  status: string,
  rooms: string,
  ids: number[],
  each: (id: number, parts: Uint8Array[]) => void | Promise<void>,
): Promise<void> {
  let id = -1;
  let parts: Uint8Array[] = [];
  // joined to the ids (each once), not filtered by `= any`: a merge with the filter's index order, where
  // `= any` compared every row with the list (a third more of PostgreSQL's time at 5,000 projects)
  await db.binaryEach(
    `select s.project_id, s.body from unnest($3::int[]) as i(id)
     join pace_summary s on s.status = $1 and s.rooms = $2 and s.project_id = i.id
     order by s.project_id, s.part`,
    [status, rooms, [...new Set(ids)]],
    ['int', 'bytea'],
    async (rows) => {
      for (const [project, body] of rows as [number, Uint8Array][]) {
        if (project !== id) {
          if (parts.length) await each(id, parts);
          id = project;
          parts = [];
        }
        parts.push(body);
      }
    },
  );
  if (parts.length) await each(id, parts);
}

/**
 * The ranking's months under `status` of `ids` that reach `need` or later, as COPY gives them (bytes, not
 * text: the whole country's months are ~30 MB): [project, month in days, hash, body], by project and month.
 * A month `held` lists with the same hash (projects, months, hashes) comes without its body.
 */
export async function rankMonthsReaching(
  db: Db,
  status: string,
  ids: number[],
  need: string,
  held: [number[], string[], string[]],
): Promise<[number, number, string, Uint8Array | null][]> {
  return (await db.binaryRows(
    `select r.project_id, (r.month - date '1970-01-01')::int as m, r.hash,
       case when h.hash is null then r.body end as body
     from rank_month r
     left join unnest($4::int[], $5::date[], $6::text[]) as h(p, m, hash)
       on h.p = r.project_id and h.m = r.month and h.hash = r.hash
     where r.status = $1 and r.project_id = any($2::int[]) and r.reach >= $3::date
     order by r.project_id, r.month`,
    [status, ids, need, ...held],
    ['int', 'int', 'text', 'bytea'],
  )) as [number, number, string, Uint8Array | null][];
}
