import type { Db } from '../driver.js';
import { base64 } from '../kept.js';

// What the dashboard first shows of a project's last day, kept by every import of it (DESIGN §11.1): the
// summary table, distribution and discounts per status, the chessboard, the avg ppm by payment term a day.

/** Replaces a project's last-day rows (none when `day` is null: no snapshot left). */
export async function saveLatest(
  db: Db,
  projectId: number,
  day: string | null,
  rows: { status: string; summary: string; distribution: string; discounts: string }[],
): Promise<void> {
  await db.query('delete from project_latest where project_id = $1', [projectId]);
  if (day === null || rows.length === 0) return;
  await db.query(
    `insert into project_latest (project_id, status, day, summary, distribution, discounts)
     select $1, s, $2::date, t, d, k from unnest($3::text[], $4::text[], $5::text[], $6::text[]) as x(s, t, d, k)`,
    [
      projectId,
      day,
      rows.map((r) => r.status),
      rows.map((r) => r.summary),
      rows.map((r) => r.distribution),
      rows.map((r) => r.discounts),
    ],
  );
}

/** Replaces a project's kept lots on sale of its latest list (JSON; none when `day` is null). */
export async function saveActiveLatest(
  db: Db,
  projectId: number,
  day: string | null,
  body: string,
): Promise<void> {
  await db.query('delete from active_latest where project_id = $1', [projectId]);
  if (day !== null)
    await db.query('insert into active_latest (project_id, day, body) values ($1, $2::date, $3)', [
      projectId,
      day,
      body,
    ]);
}

/**
 * The kept lots on sale (JSON) of the projects among `ids`, with their day, while it is their latest list's
 * (a row of an earlier day is not read).
 */
export async function keptActive(
  db: Db,
  ids: readonly number[],
): Promise<{ project_id: number; d: number; body: string }[]> {
  return db.query<{ project_id: number; d: number; body: string }>(
    `select k.project_id, k.day - date '1970-01-01' as d, k.body from active_latest k
     join project p on p.id = k.project_id and p.last_snapshot_date = k.day
     where k.project_id = any($1::int[])`,
    [ids],
  );
}

/** Replaces a project's first chessboard (gzipped JSON; none when null). */
export async function saveLatestChess(db: Db, projectId: number, body: Buffer | null): Promise<void> {
  await db.query('delete from chess_latest where project_id = $1', [projectId]);
  if (body) await db.query('insert into chess_latest (project_id, body) values ($1, $2)', [projectId, body]);
}

/** Replaces the payment-term rows of `days` (every day of the project when null) with `rows`. */
export async function saveOfferDays(
  db: Db,
  projectId: number,
  days: string[] | null,
  rows: { day: string; body: string }[],
): Promise<void> {
  if (days)
    await db.query('delete from offer_day where project_id = $1 and day = any($2::date[])', [
      projectId,
      days,
    ]);
  else await db.query('delete from offer_day where project_id = $1', [projectId]);
  if (rows.length === 0) return;
  await db.query(
    `insert into offer_day (project_id, day, body)
     select $1, d, b from unnest($2::date[], $3::text[]) as x(d, b)`,
    [projectId, rows.map((r) => r.day), rows.map((r) => r.body)],
  );
}

/** The payment-term rows of the days in [from, to]. */
export async function offerDays(
  db: Db,
  projectId: number,
  from: string,
  to: string,
): Promise<{ day: string; body: string }[]> {
  return db.query<{ day: string; body: string }>(
    `select day::text as day, body from offer_day
     where project_id = $1 and day between $2::date and $3::date order by day`,
    [projectId, from, to],
  );
}

/** The kept discounts (JSON) under `status` of the projects among `ids` whose last day is `day`. */
export async function latestDiscounts(
  db: Db,
  status: string,
  day: string,
  ids: number[],
): Promise<{ project_id: number; discounts: string }[]> {
  return db.query<{ project_id: number; discounts: string }>(
    `select project_id, discounts from project_latest
     where status = $1 and day = $2::date and discounts is not null and project_id = any($3::int[])`,
    [status, day, ids],
  );
}

/** The kept first chessboard as base64 of its gzipped JSON; null when none is kept. */
export async function keptChess(db: Db, projectId: number): Promise<string | null> {
  const [kept] = await db.query<{ body: string }>(
    `select ${base64('body')} from chess_latest where project_id = $1`,
    [projectId],
  );
  return kept ? kept.body : null;
}

/** The kept distribution (JSON) of the last day under `status`, if `date` (null: the last) reads that day. */
export async function keptDistribution(
  db: Db,
  projectId: number,
  status: string,
  date: string | null,
): Promise<string | null> {
  const [kept] = await db.query<{ distribution: string }>(
    `select l.distribution from project_latest l join project p on p.id = l.project_id
     where l.project_id = $1 and l.status = $2 and ($3::date is null or $3::date >= p.last_snapshot_date)`,
    [projectId, status, date],
  );
  return kept ? kept.distribution : null;
}

/** The kept summary table (JSON) of the project's last day `day` under `status`; null when none is kept. */
export async function keptSummary(
  db: Db,
  projectId: number,
  status: string,
  day: string,
): Promise<string | null> {
  const [kept] = await db.query<{ summary: string }>(
    `select summary from project_latest where project_id = $1 and status = $2 and day = $3::date`,
    [projectId, status, day],
  );
  return kept ? kept.summary : null;
}
