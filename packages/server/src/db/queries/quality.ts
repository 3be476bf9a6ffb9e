import type { ProjectQuality } from '@cena-metra/contract';
import { dataGaps, partialScans } from '../../analytics/quality.js';
import { fromDay, toDay } from '../../lib/days.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : null);

/**
 * What a user needs to see why a number looks odd (issue 14): snapshots, gaps, partial scans, flats whose
 * area changed, price-per-m² outliers and the shares of reserved lots and lots without a settlement date
 * in the last list.
 */
export async function getProjectQuality(db: Db, projectId: number, carry: number): Promise<ProjectQuality> {
  const [project] = await db.query<{ name: string }>('select name from project where id = $1', [projectId]);
  if (!project) throw new NotFoundError(`проект ${projectId} не найден`);
  const snapshots = await db.query<{ date: string; flats: number; complete: boolean; partial: boolean }>(
    `select date::text as date, flats_count as flats, complete, partial from snapshot where project_id = $1
     order by date`,
    [projectId],
  );
  const sizes = snapshots.map((s) => ({ day: toDay(s.date), flats: s.flats, complete: s.complete }));
  const [{ n: areaChangedFlats }] = await db.query<{ n: number }>(
    `select count(*)::int as n from (select flat_id from flat_observation where project_id = $1 and present
       group by flat_id having count(distinct area) > 1) f`,
    [projectId],
  );
  const last = sizes.at(-1);
  let latest = { lots: 0, reserved: 0, noSettlement: 0, outliers: 0 };
  if (last) {
    // the flats listed in the last snapshot, each with its state there (the latest row on or before it)
    const [row] = await db.query<typeof latest>(
      `with listed as (
         select distinct on (o.flat_id) o.present, o.price, o.area, o.status, o.settlement_date
         from flat_observation o where o.project_id = $1 and o.snapshot_date <= $2
         order by o.flat_id, o.snapshot_date desc),
       lots as (select * from listed where present),
       med as (select percentile_cont(0.5) within group (order by price / area) as m from lots)
       select count(*)::int as lots,
              count(*) filter (where status = 'RESERVED')::int as reserved,
              count(*) filter (where settlement_date is null)::int as "noSettlement",
              count(*) filter (where price / area < (select m from med) / 2
                                  or price / area > (select m from med) * 2)::int as outliers
       from lots`,
      [projectId, fromDay(last.day)],
    );
    latest = row;
  }
  return {
    projectId,
    projectName: project.name,
    maxCarryDays: carry,
    snapshots: {
      count: sizes.length,
      first: sizes.length ? fromDay(sizes[0].day) : null,
      last: last ? fromDay(last.day) : null,
    },
    gaps: dataGaps(
      sizes.map((s) => s.day),
      carry,
    ).map((g) => ({ after: fromDay(g.after), before: fromDay(g.before), days: g.days })),
    partialScans: partialScans(sizes, carry).map((p) => ({
      date: fromDay(p.day),
      flats: p.flats,
      median: p.median,
    })),
    snapshotList: snapshots
      .map((s) => ({ date: s.date, flats: s.flats, partial: s.partial, complete: s.complete }))
      .reverse(),
    areaChangedFlats,
    ppmOutliers: latest.outliers,
    reservedPercent: percent(latest.reserved, latest.lots),
    noSettlementPercent: percent(latest.noSettlement, latest.lots),
  };
}
