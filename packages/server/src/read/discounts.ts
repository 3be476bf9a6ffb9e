import type {
  DiscountBasis,
  DiscountFlat,
  DiscountPeriod,
  DiscountProjectResponse,
  DiscountResponse,
  StatsStatus,
} from '@cena-metra/contract';
import { discountedFlats, type ProjectDiscounts, projectDiscountSummary } from '../analytics/discounts.js';
import { round2 } from '../analytics/stats.js';
import type { Db } from '../db/driver.js';
import { developerExists, projectSpans, type ProjectSpan as ScopeProject } from '../db/queries/catalog.js';
import { latestDiscounts } from '../db/queries/kept-latest.js';
import { fromDay, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import type { StatsReader } from './stats-reader.js';

/** Projects in scope (one project, a developer's, or all), with their data span; 404 for an unknown id. */
async function scopeProjects(db: Db, developerId?: number, projectId?: number): Promise<ScopeProject[]> {
  if (developerId !== undefined) {
    if (!(await developerExists(db, developerId)))
      throw new NotFoundError(`застройщик ${developerId} не найден`);
  }
  const rows = await projectSpans(db, developerId ?? null, projectId ?? null);
  if (projectId !== undefined && rows.length === 0) throw new NotFoundError(`проект ${projectId} не найден`);
  return rows;
}

/** A: the requested date, else the latest snapshot date in scope (docs/decisions.md). */
function dayOf(projects: ScopeProject[], date?: string): number | null {
  if (date) return toDay(date);
  const last = projects.map((p) => p.last_snapshot_date).filter((d): d is string => d !== null);
  return last.length ? toDay(last.sort().at(-1)!) : null;
}

async function activeOn(db: Db, engine: StatsReader, p: ScopeProject, a: number, status: StatsStatus) {
  if (!p.first_snapshot_date) return [];
  return engine.activeFlats(db, p.id, a, status);
}

/**
 * The discounts kept for the projects whose last snapshot day is A (derive/latest.ts), in one query: the
 * whole market's table read 5,000 projects' flats one project at a time (80 s cold). A project without a
 * kept row (its last day is not A, or it was kept before migration 22) is read from its flats as before.
 */
async function keptDiscounts(
  db: Db,
  projects: ScopeProject[],
  a: number,
  status: StatsStatus,
): Promise<Map<number, ProjectDiscounts>> {
  const day = fromDay(a);
  const ids = projects.filter((p) => p.last_snapshot_date === day).map((p) => p.id);
  if (ids.length === 0) return new Map();
  const rows = await latestDiscounts(db, status, day, ids);
  return new Map(rows.map((r) => [r.project_id, JSON.parse(r.discounts) as ProjectDiscounts]));
}

/** What a discounts table asks: the period and basis, the day A (the last with data by default), whose. */
interface DiscountScope {
  period: DiscountPeriod;
  basis: DiscountBasis;
  date?: string;
  developerId?: number;
  status: StatsStatus;
}

/** §4.3: flats active on A with a discount > 0 for the period, largest first. */
export async function getDiscounts(
  db: Db,
  engine: StatsReader,
  q: DiscountScope & { projectId?: number; rooms?: number; limit: number },
): Promise<DiscountResponse> {
  const projects = await scopeProjects(db, q.developerId, q.projectId);
  const a = dayOf(projects, q.date);
  if (a === null) return { date: null, rows: [] };
  const rows: (DiscountFlat & { raw: number })[] = [];
  const kept = await keptDiscounts(db, projects, a, q.status);
  const keptMax = (p: ScopeProject) => kept.get(p.id)?.[q.period][q.basis];
  // the projects without kept figures first (they are all read), then the others by their largest
  // discount: once `limit` rows are found, a project whose largest (rounded to 0.01, so + 0.005) is below
  // the limit-th row's cannot place a row, nor can any after it — the list reads a few projects, not all
  const unknown = projects.filter((p) => !keptMax(p));
  const known = projects
    .filter((p) => (keptMax(p)?.discountedFlats ?? 0) > 0)
    .sort((x, y) => keptMax(y)!.maxDiscountPercent - keptMax(x)!.maxDiscountPercent);
  const limitth = () => {
    if (rows.length < q.limit) return Number.NEGATIVE_INFINITY;
    rows.sort((x, y) => y.raw - x.raw || x.flatId - y.flatId);
    rows.length = q.limit;
    return rows[q.limit - 1].raw;
  };
  for (const p of [...unknown, ...known]) {
    const max = keptMax(p);
    if (max && max.maxDiscountPercent + 0.005 < limitth()) break;
    const flats = (await activeOn(db, engine, p, a, q.status)).filter(
      (f) => q.rooms === undefined || f.rec.rooms === q.rooms,
    );
    for (const d of discountedFlats(flats, q.period, q.basis)) {
      const rec = d.flat.rec;
      rows.push({
        raw: d.discount,
        flatId: d.flat.flatId,
        developerName: p.developer_name,
        projectId: p.id,
        projectName: p.name,
        building: rec.building,
        rooms: rec.rooms,
        area: rec.area,
        floor: rec.floor,
        facing: rec.facing,
        refPrice: d.refPrice,
        price: rec.price,
        refMeterPrice: round2(d.refPrice / rec.area),
        meterPrice: round2(rec.price / rec.area),
        discountPercent: round2(d.discount),
      });
    }
  }
  rows.sort((x, y) => y.raw - x.raw || x.flatId - y.flatId);
  return { date: fromDay(a), rows: rows.slice(0, q.limit).map(({ raw: _raw, ...row }) => row) };
}

/** §4.3 per project: active and discounted flats on A, max and mean discount, average price per m². */
export async function getProjectDiscounts(
  db: Db,
  engine: StatsReader,
  q: DiscountScope,
): Promise<DiscountProjectResponse> {
  const projects = await scopeProjects(db, q.developerId);
  const a = dayOf(projects, q.date);
  if (a === null) return { date: null, rows: [] };
  const rows = [];
  const kept = await keptDiscounts(db, projects, a, q.status);
  for (const p of projects) {
    const summary =
      kept.get(p.id)?.[q.period][q.basis] ??
      projectDiscountSummary(await activeOn(db, engine, p, a, q.status), q.period, q.basis);
    rows.push({
      projectId: p.id,
      projectName: p.name,
      developerId: p.developer_id,
      developerName: p.developer_name,
      ...summary,
    });
  }
  return { date: fromDay(a), rows };
}
