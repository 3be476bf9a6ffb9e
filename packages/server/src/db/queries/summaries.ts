import type { Summary, SummaryListItem, SummaryProject, SummaryProjectRow } from '@cena-metra/contract';
import { isGap, isPriceEventAfterGap } from '../../analytics/carry.js';
import { NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';
import { gapDaysSql } from './gaps.js';

const r2 = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);

/**
 * Daily summaries newest first, each with its totals over the projects that had a snapshot that day. The
 * days are chosen first (the newest `limit` with projects), then only their rows are added up: a year of
 * the whole country's rows summed before the limit made the list 1.2–1.9 s cold.
 */
export async function getSummaries(db: Db, limit: number, before?: string): Promise<SummaryListItem[]> {
  return db.query<SummaryListItem>(
    `with days as (
       select ds.id, ds.date from daily_summary ds
       where ($1::date is null or ds.date < $1)
         and exists (select 1 from summary_project x where x.date = ds.date)
       order by ds.date desc limit ${limit}
     )
     select s.id, s.date::text as date, count(sp.project_id)::int as projects,
            coalesce(sum(sp.new_flats), 0)::int as "newFlats", coalesce(sum(sp.removed_flats), 0)::int as "removedFlats",
            coalesce(sum(sp.price_up), 0)::int as "priceUp", coalesce(sum(sp.price_down), 0)::int as "priceDown",
            coalesce(sum(sp.area_changed), 0)::int as "areaChanged",
            coalesce(sum(sp.promo_started), 0)::int as "promoStarted",
            coalesce(sum(sp.promo_ended), 0)::int as "promoEnded",
            coalesce(bool_or(sn.partial), false) as "partial"
     from days s join summary_project sp on sp.date = s.date
       left join snapshot sn on sn.project_id = sp.project_id and sn.date = sp.date
     group by s.id, s.date order by s.date desc`,
    [before ?? null],
  );
}

const PROJECT_COLUMNS = `sp.project_id as "projectId", p.name as "projectName", d.name as "developerName",
  sp.is_new_project as "isNewProject", sp.flats_count as "flatsCount", sp.new_flats as "newFlats",
  sp.removed_flats as "removedFlats", sp.price_up as "priceUp", sp.price_down as "priceDown",
  sp.avg_change_percent as "avgChangePercent", sp.avg_meter_price as "avgMeterPrice",
  sp.area_changed as "areaChanged", sp.promo_started as "promoStarted", sp.promo_ended as "promoEnded",
  coalesce((select sn.partial from snapshot sn where sn.project_id = sp.project_id and sn.date = sp.date), false)
    as "partial",
  ${gapDaysSql('sp.project_id', 'sp.date')} as "gapDays"`;

function roundRow(row: Omit<SummaryProjectRow, 'afterGap'>, carry: number): SummaryProjectRow {
  return {
    ...row,
    avgChangePercent: r2(row.avgChangePercent),
    avgMeterPrice: r2(row.avgMeterPrice),
    afterGap: isGap(row.gapDays, carry),
  };
}

async function summaryHead(db: Db, id: number) {
  const [s] = await db.query<{ id: number; date: string }>(
    'select id, date::text as date from daily_summary where id = $1',
    [id],
  );
  if (!s) throw new NotFoundError(`сводка ${id} не найдена`);
  return s;
}

export async function getSummary(db: Db, id: number, carry: number): Promise<Summary> {
  const s = await summaryHead(db, id);
  const projects = await db.query<SummaryProjectRow>(
    `select ${PROJECT_COLUMNS} from summary_project sp join project p on p.id = sp.project_id
     join developer d on d.id = p.developer_id where sp.date = $1 order by lower(d.name), lower(p.name), p.id`,
    [s.date],
  );
  return { ...s, projects: projects.map((p) => roundRow(p, carry)) };
}

export async function getSummaryProject(
  db: Db,
  id: number,
  projectId: number,
  carry: number,
): Promise<SummaryProject> {
  const s = await summaryHead(db, id);
  const [project] = await db.query<SummaryProjectRow>(
    `select ${PROJECT_COLUMNS} from summary_project sp join project p on p.id = sp.project_id
     join developer d on d.id = p.developer_id where sp.date = $1 and sp.project_id = $2`,
    [s.date, projectId],
  );
  if (!project) throw new NotFoundError(`в сводке ${id} нет проекта ${projectId}`);
  const events = await db.query<SummaryProject['events'][number]>(
    `select kind, flat_id as "flatId", building, rooms, area, floor, facing, old_price as "oldPrice",
            new_price as "newPrice", change_percent as "changePercent", old_area as "oldArea",
            $3::int as "gapDays"
     from flat_event where project_id = $1 and day = $2
     order by case kind when 'PRICE_DOWN' then 0 when 'PRICE_UP' then 1 when 'NEW' then 2 when 'REMOVED' then 3
       when 'AREA_CHANGED' then 4 else 5 end, flat_id, kind`,
    [projectId, s.date, project.gapDays],
  );
  for (const e of events) {
    e.changePercent = r2(e.changePercent);
    e.afterGap = isPriceEventAfterGap(e.kind, e.gapDays, carry);
  }
  return { summary: s, project: roundRow(project, carry), events };
}
