import type { CubeCell } from '../../analytics/cube.js';
import { averageChangePercent, countEvents, type FlatEvent } from '../../analytics/events.js';
import type { ProjectModel } from '../../analytics/model.js';
import type { Segment } from '../../analytics/types.js';
import { fromDay } from '../../lib/days.js';
import type { Db } from '../driver.js';
import { inChunks, recordArrays, recordTypes } from '../records.js';

/** flat_event's columns of a record: its prices are the event's old and new prices. */
const EVENT_EXCEPT = ['price', 'base_price'] as const;

export async function saveSegments(
  db: Db,
  projectId: number,
  inserts: Segment[],
  deletes: { flatId: number; startDay: number }[],
): Promise<void> {
  if (deletes.length) {
    await db.query(
      `delete from flat_segment s using unnest($2::int[], $3::date[]) as d(flat_id, start_day)
       where s.project_id = $1 and s.flat_id = d.flat_id and s.start_day = d.start_day`,
      [projectId, deletes.map((d) => d.flatId), deletes.map((d) => fromDay(d.startDay))],
    );
  }
  await inChunks(inserts, async (chunk) => {
    await db.insertColumns(
      'flat_segment',
      [
        ['project_id', 'int'],
        ['flat_id', 'int'],
        ['start_day', 'date'],
        ['end_day', 'date'],
        ...recordTypes(),
      ],
      [
        chunk.map(() => projectId),
        chunk.map((s) => s.flatId),
        chunk.map((s) => fromDay(s.startDay)),
        chunk.map((s) => (s.endDay === null ? null : fromDay(s.endDay))),
        ...recordArrays(chunk.map((s) => s.rec)),
      ],
    );
  });
}

/** A day's flats, and their weighted average ppm (§4.2), from its cube. */
export function cubeTotals(cells: CubeCell[]) {
  let count = 0;
  let sumPrice = 0;
  let sumArea100 = 0;
  for (const c of cells) {
    count += c.count;
    sumPrice += c.sumPrice;
    sumArea100 += c.sumArea100;
  }
  return { count, avgMeterPrice: count ? sumPrice / (sumArea100 / 100) : null };
}

/** Removes a project's timeline (segments, stats series, events, summary rows) before a full recompute. */
export async function clearTimeline(db: Db, projectId: number): Promise<void> {
  for (const table of ['flat_segment', 'series_month', 'flat_event', 'summary_project'])
    await db.query(`delete from ${table} where project_id = $1`, [projectId]);
}

/** Replaces the events of the given days and the summaries they feed (DESIGN §4.4). */
export async function saveEventsAndSummaries(
  db: Db,
  projectId: number,
  firstSnapshotDay: number,
  events: Map<number, FlatEvent[]>,
  cubes: Map<number, CubeCell[]>,
): Promise<void> {
  const days = [...events.keys()];
  if (days.length) {
    await db.query('delete from flat_event where project_id = $1 and day = any($2::date[])', [
      projectId,
      days.map(fromDay),
    ]);
    const all = days.flatMap((d) => events.get(d)!.map((e) => ({ day: d, e })));
    await inChunks(all, async (chunk) => {
      await db.insertColumns(
        'flat_event',
        [
          ['project_id', 'int'],
          ['day', 'date'],
          ['flat_id', 'int'],
          ['kind', 'text'],
          // an event keeps its old and new prices instead of the record's
          ...recordTypes(EVENT_EXCEPT),
          ['old_price', 'int8'],
          ['new_price', 'int8'],
          ['change_percent', 'float8'],
          ['old_area', 'float8'],
        ],
        [
          chunk.map(() => projectId),
          chunk.map((x) => fromDay(x.day)),
          chunk.map((x) => x.e.flatId),
          chunk.map((x) => x.e.kind),
          ...recordArrays(
            chunk.map((x) => x.e.rec),
            EVENT_EXCEPT,
          ),
          chunk.map((x) => x.e.oldPrice),
          chunk.map((x) => x.e.newPrice),
          chunk.map((x) => x.e.changePercent),
          chunk.map((x) => x.e.oldArea),
        ],
      );
    });
  }
  // summary rows: full for days whose events were recomputed, totals only for other recomputed cubes
  const summaryDays = [...new Set([...days, ...cubes.keys()])].sort((a, b) => a - b);
  if (summaryDays.length === 0) return;
  await db.query(
    `insert into daily_summary (date) select * from unnest($1::date[])
     on conflict (date) do update set updated_at = now()`,
    [summaryDays.map(fromDay)],
  );
  const full = summaryDays.filter((d) => events.has(d));
  if (full.length) {
    const counts = full.map((d) => countEvents(events.get(d)!));
    const totals = full.map((d) => (cubes.has(d) ? cubeTotals(cubes.get(d)!) : null));
    await db.query(
      `insert into summary_project (date, project_id, is_new_project, flats_count, new_flats, removed_flats,
         price_up, price_down, avg_change_percent, avg_meter_price, area_changed, promo_started, promo_ended)
       select d, $1, d = $2::date, coalesce(fc, 0), n, r, u, dn, ac, ap, aa, ps, pe
       from unnest($3::date[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::float8[], $10::float8[],
         $12::int[], $13::int[], $14::int[]) as x(d, fc, n, r, u, dn, ac, ap, aa, ps, pe)
       on conflict (date, project_id) do update set is_new_project = excluded.is_new_project,
         new_flats = excluded.new_flats, removed_flats = excluded.removed_flats, price_up = excluded.price_up,
         price_down = excluded.price_down, avg_change_percent = excluded.avg_change_percent,
         area_changed = excluded.area_changed, promo_started = excluded.promo_started,
         promo_ended = excluded.promo_ended,
         flats_count = case when $11 then excluded.flats_count else summary_project.flats_count end,
         avg_meter_price = case when $11 then excluded.avg_meter_price else summary_project.avg_meter_price end`,
      [
        projectId,
        fromDay(firstSnapshotDay),
        full.map(fromDay),
        totals.map((t) => t?.count ?? 0),
        counts.map((c) => c.NEW),
        counts.map((c) => c.REMOVED),
        counts.map((c) => c.PRICE_UP),
        counts.map((c) => c.PRICE_DOWN),
        full.map((d) => averageChangePercent(events.get(d)!)),
        totals.map((t) => t?.avgMeterPrice ?? null),
        true,
        counts.map((c) => c.AREA_CHANGED),
        counts.map((c) => c.PROMO_STARTED),
        counts.map((c) => c.PROMO_ENDED),
      ],
    );
  }
  const totalsOnly = summaryDays.filter((d) => !events.has(d));
  if (totalsOnly.length) {
    const totals = totalsOnly.map((d) => cubeTotals(cubes.get(d)!));
    await db.query(
      `update summary_project s set flats_count = x.fc, avg_meter_price = x.ap, is_new_project = x.d = $2::date
       from unnest($3::date[], $4::int[], $5::float8[]) as x(d, fc, ap)
       where s.project_id = $1 and s.date = x.d`,
      [
        projectId,
        fromDay(firstSnapshotDay),
        totalsOnly.map(fromDay),
        totals.map((t) => t.count),
        totals.map((t) => t.avgMeterPrice),
      ],
    );
  }
}

/**
 * Stores which snapshots are partial (§10.4) as the model last computed: a new or replaced snapshot's count
 * may make later ones partial or whole. Snapshot rows written in this transaction are included.
 */
export async function savePartialFlags(db: Db, model: ProjectModel): Promise<void> {
  await db.query(
    `update snapshot set partial = (date = any($2::date[]))
     where project_id = $1 and partial <> (date = any($2::date[]))`,
    [model.projectId, [...model.partial].map(fromDay)],
  );
}
