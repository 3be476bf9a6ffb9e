import type { ProjectPeriodSums } from '../../analytics/hedonic.js';
import { monthStartDay } from '../../analytics/hedonic-observations.js';
import type { Segment } from '../../analytics/types.js';
import { fromDay } from '../../lib/days.js';
import type { Db } from '../driver.js';
import { recordColumnsOf, recordFromText, segmentOfArray } from '../records.js';
import { keptActive } from './kept-latest.js';

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

/**
 * The stamps of the projects' kept months (migration 35; 0 for a month written before it), by project and month:
 * a month rewritten has a new stamp, so the hedonic links' round sees which windows changed without the bodies.
 */
export async function hedonicStamps(
  db: Db,
  ids: readonly number[],
): Promise<{ project: number; period: number; stamp: number }[]> {
  const rows = (await db.binaryRows(
    `select project_id, ((extract(year from month) - 1970) * 12 + extract(month from month) - 1)::int,
       coalesce(stamp, 0)
     from hedonic_month where project_id = any($1::int[]) order by project_id, month`,
    [ids],
    ['int', 'int', 'int'],
  )) as [number, number, number][];
  return rows.map(([project, period, stamp]) => ({ project, period, stamp }));
}

/** Segments read as `project, day, flat, start, end, record…`, by project (with the day) and flat. */
function segmentsByProject(rows: (string | null)[][]) {
  const out = new Map<number, { day: number; segments: Map<number, Segment[]> }>();
  for (const r of rows) {
    const project = Number(r[0]);
    let entry = out.get(project);
    if (!entry) {
      entry = { day: Number(r[1]), segments: new Map() };
      out.set(project, entry);
    }
    const flatId = Number(r[2]);
    entry.segments.set(flatId, [
      ...(entry.segments.get(flatId) ?? []),
      {
        flatId,
        startDay: Number(r[3]),
        endDay: r[4] === null ? null : Number(r[4]),
        rec: recordFromText(r, 5),
      },
    ]);
  }
  return out;
}

/**
 * The segments active on each project's latest list day, of the projects `ids`: what their latest month's
 * observations are made of (that month's last day with data is the latest list's day). Each project's as its
 * imports kept them (active_latest: one row, where the timeline's are scattered over a year of its pages);
 * those of a project without that row yet read from the timeline. The projects in id order.
 */
export async function latestActiveSegments(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { day: number; segments: Map<number, Segment[]> }>> {
  const found = new Map<number, { day: number; segments: Map<number, Segment[]> }>();
  const rows = await keptActive(db, ids);
  for (const row of rows) {
    const segments = new Map<number, Segment[]>();
    for (const a of JSON.parse(row.body) as unknown[][]) {
      const s = segmentOfArray(a);
      const list = segments.get(s.flatId);
      if (list) list.push(s);
      else segments.set(s.flatId, [s]);
    }
    // a project with no lot on sale on its latest list has no row in the timeline's answer either
    if (segments.size > 0) found.set(row.project_id, { day: Number(row.d), segments });
  }
  const kept = new Set(rows.map((r) => r.project_id));
  const rest = ids.filter((id) => !kept.has(id));
  if (rest.length > 0) for (const [id, entry] of await timelineActiveSegments(db, rest)) found.set(id, entry);
  return new Map([...found].sort((a, b) => a[0] - b[0]));
}

/**
 * `latestActiveSegments` from the timeline itself (a project without its kept row; tests compare the two).
 * Read in two parts that
 * the (project, end) index finds each — the open ones, and those ending on or after the day: with the OR in one
 * condition PostgreSQL scanned every segment of the project by its key (~2,600 rows at the reference market to
 * keep ~200; 86–90 → 70–78 ms cold for 16 projects).
 */
export async function timelineActiveSegments(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { day: number; segments: Map<number, Segment[]> }>> {
  const rows = await db.textRows(
    `select s.project_id, p.last_snapshot_date - date '1970-01-01', s.flat_id,
       s.start_day - date '1970-01-01', s.end_day - date '1970-01-01', ${recordColumnsOf('s')}
     from project p cross join lateral (
       select * from flat_segment s where s.project_id = p.id and s.end_day is null
         and s.start_day <= p.last_snapshot_date
       union all
       select * from flat_segment s where s.project_id = p.id and s.end_day >= p.last_snapshot_date
         and s.start_day <= p.last_snapshot_date) s
     where p.id = any($1::int[]) order by s.project_id, s.flat_id, s.start_day`,
    [ids],
  );
  return segmentsByProject(rows);
}

/**
 * The projects' list days and the segments running on any day of [from, to] (days): what the observations of
 * periods within it are made of, for the index's periods not kept (weeks).
 */
export async function segmentsBetween(
  db: Db,
  ids: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, { dates: number[]; segments: Map<number, Segment[]> }>> {
  const rows = await db.textRows(
    `select s.project_id, 0, s.flat_id,
       s.start_day - date '1970-01-01', s.end_day - date '1970-01-01', ${recordColumnsOf('s')}
     from flat_segment s
     where s.project_id = any($1::int[]) and s.start_day <= $3::date and (s.end_day is null or s.end_day >= $2::date)
     order by s.project_id, s.flat_id, s.start_day`,
    [ids, fromDay(from), fromDay(to)],
  );
  const dates = await db.query<{ project_id: number; d: number }>(
    `select project_id, date - date '1970-01-01' as d from snapshot where project_id = any($1::int[])
     order by project_id, date`,
    [ids],
  );
  const out = new Map<number, { dates: number[]; segments: Map<number, Segment[]> }>();
  for (const r of dates) {
    const entry = out.get(r.project_id) ?? { dates: [] as number[], segments: new Map<number, Segment[]>() };
    entry.dates.push(Number(r.d));
    out.set(r.project_id, entry);
  }
  for (const [id, { segments }] of segmentsByProject(rows)) {
    const entry = out.get(id);
    if (entry) entry.segments = segments;
  }
  return out;
}

/** A flat's project and the day of the project's latest list; null when there is no such flat. */
export async function flatProject(
  db: Db,
  flatId: number,
): Promise<{ projectId: number; day: number } | null> {
  const [row] = await db.query<{ project_id: number; d: number | null }>(
    `select f.project_id, p.last_snapshot_date - date '1970-01-01' as d
     from flat f join project p on p.id = f.project_id where f.id = $1`,
    [flatId],
  );
  return row && row.d !== null ? { projectId: row.project_id, day: Number(row.d) } : null;
}
