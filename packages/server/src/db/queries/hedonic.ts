import type { ProjectPeriodSums } from '../../analytics/hedonic.js';
import { monthStartDay } from '../../analytics/hedonic-observations.js';
import { fromDay } from '../../lib/days.js';
import type { Db } from '../driver.js';

// The hedonic model's kept sums (DESIGN §12.4, migration 33): a project's month as little-endian doubles.

const monthDate = (month: number) => fromDay(monthStartDay(month));

/** Replaces a project's months from `from` on (every month when null) with `rows`. */
export async function saveHedonicMonths(
  db: Db,
  projectId: number,
  from: number | null,
  rows: readonly ProjectPeriodSums[],
): Promise<void> {
  if (from === null) await db.query('delete from hedonic_month where project_id = $1', [projectId]);
  else
    await db.query('delete from hedonic_month where project_id = $1 and month >= $2::date', [
      projectId,
      monthDate(from),
    ]);
  if (rows.length === 0) return;
  await db.query(
    `insert into hedonic_month (project_id, month, body)
     select $1, m, decode(b, 'base64') from unnest($2::date[], $3::text[]) as x(m, b)`,
    [
      projectId,
      rows.map((r) => monthDate(r.period)),
      rows.map((r) => Buffer.from(r.sums.buffer, r.sums.byteOffset, r.sums.byteLength).toString('base64')),
    ],
  );
}

/** The kept months [from, to] of the projects `ids`, by project and month (the month as months since 1970). */
export async function hedonicMonths(
  db: Db,
  ids: readonly number[],
  from: number,
  to: number,
): Promise<ProjectPeriodSums[]> {
  const rows = (await db.binaryRows(
    `select project_id, ((extract(year from month) - 1970) * 12 + extract(month from month) - 1)::int as m, body
     from hedonic_month where project_id = any($1::int[]) and month between $2::date and $3::date
     order by project_id, month`,
    [ids, monthDate(from), monthDate(to)],
    ['int', 'int', 'bytea'],
  )) as [number, number, Uint8Array][];
  return rows.map(([project, period, body]) => {
    // a copy on an 8-byte boundary: the bytes may sit at any offset of the answer
    const sums = new Float64Array(body.byteLength / 8);
    new Uint8Array(sums.buffer).set(body);
    return { project, period, sums };
  });
}
