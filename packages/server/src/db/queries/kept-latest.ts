import type { Db } from '../driver.js';

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
