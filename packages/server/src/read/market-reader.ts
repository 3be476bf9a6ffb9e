import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type CompareRequest,
  type CompareResponse,
  type MarketPaceResponse,
  type MarketResponse,
  type MarketRow,
  priceClassOf,
  ROOM_GROUPS,
  type RoomGroup,
  STATS_STATUSES,
  type StatsStatus,
} from '@cena-metra/contract';
import type { FlatEvent } from '../analytics/events.js';
import { type PaceSummary, paceSummaries, type UnionPoint, unionPace } from '../analytics/pace-summary.js';
import { GROUP_FILTERS, recordCounts } from '../analytics/stats.js';
import type { FlatRecord, Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { ProjectCache } from './project-cache.js';

/** A project as the market reads it. */
interface ProjectRow {
  id: number;
  name: string;
  data_version: number;
  developer_id: number;
  developer_name: string;
}

const VARIANTS = STATS_STATUSES.flatMap((status) => ROOM_GROUPS.map((rooms) => ({ status, rooms })));
const variantKey = (status: StatsStatus, rooms: RoomGroup) => `${status}:${rooms}`;
const summaryBytes = (s: PaceSummary) => 100 + s.dates.length * 80 + s.removals.length * 40;

/**
 * A developer's and the market's sales pace and index, the market's ranking and the comparison of projects
 * (§10.5–10.6), recomputed over unions of projects from each project's pace summaries. A summary is derived
 * from the project's timeline once per data version and stored (`pace_summary`), so a fresh process reads
 * it instead of every project's segments; `refresh` brings the stale ones up to date after imports.
 */
export class MarketReader {
  private readonly cache = new ProjectCache<Map<string, PaceSummary>>(4_000, 192 * 1024 * 1024, (m) =>
    [...m.values()].reduce((sum, s) => sum + summaryBytes(s), 0),
  );
  private refreshing: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly carry: number) {}

  /** The summaries of `projects` for one filter: from memory, the table when current, else derived and stored. */
  async summaries(
    db: Db,
    projects: Pick<ProjectRow, 'id' | 'data_version'>[],
    status: StatsStatus,
    rooms: RoomGroup,
  ): Promise<Map<number, PaceSummary>> {
    const key = variantKey(status, rooms);
    const out = new Map<number, PaceSummary>();
    const missing: Pick<ProjectRow, 'id' | 'data_version'>[] = [];
    for (const p of projects) {
      const held = await this.cache.get(p.id, p.data_version, () => new Map());
      const s = held.get(key);
      if (s) out.set(p.id, s);
      else missing.push(p);
    }
    if (missing.length === 0) return out;
    const stored = await db.query<{ project_id: number; data_version: number; body: Uint8Array }>(
      `select project_id, data_version, body from pace_summary
       where status = $1 and rooms = $2 and project_id = any($3::int[])`,
      [status, rooms, missing.map((p) => p.id)],
    );
    const current = new Map<number, Uint8Array>();
    const version = new Map(missing.map((p) => [p.id, p.data_version]));
    for (const r of stored)
      if (version.get(r.project_id) === r.data_version) current.set(r.project_id, r.body);
    for (const p of missing) {
      const body = current.get(p.id);
      const held = await this.cache.get(p.id, p.data_version, () => new Map());
      if (body) held.set(key, JSON.parse(gunzipSync(body).toString('utf8')) as PaceSummary);
      // derived: every filter's summary is kept, not only the one asked
      else for (const [k, s] of Object.entries(await this.derive(db, p.id))) held.set(k, s);
      out.set(p.id, held.get(key)!);
    }
    this.cache.evict();
    return out;
  }

  /** Derives every filter's summary of a project from its timeline and stores them. */
  private async derive(db: Db, projectId: number): Promise<Record<string, PaceSummary>> {
    const data = await leanTimeline(db, projectId);
    const out: Record<string, PaceSummary> = {};
    const params: unknown[] = [projectId, data.version];
    const values: string[] = [];
    const summaries = paceSummaries(
      data.segments,
      data.events,
      data.firstSeen,
      data.dates,
      this.carry,
      VARIANTS.map(({ status, rooms }) => {
        const group = GROUP_FILTERS[rooms];
        return (rec: FlatRecord) => group(rec.rooms) && recordCounts(rec, status);
      }),
    );
    for (const [i, { status, rooms }] of VARIANTS.entries()) {
      const summary = summaries[i];
      out[variantKey(status, rooms)] = summary;
      params.push(status, rooms, gzipSync(JSON.stringify(summary)));
      const n = params.length;
      values.push(`($1, $${n - 2}, $${n - 1}, $2, $${n})`);
    }
    await db.query(
      `insert into pace_summary (project_id, status, rooms, data_version, body) values ${values.join(', ')}
       on conflict (project_id, status, rooms) do update set data_version = excluded.data_version,
         body = excluded.body`,
      params,
    );
    return out;
  }

  /**
   * Derives and stores the summaries of every project whose stored ones are older than its data (after an
   * import or a collection; one refresh at a time, another asked meanwhile runs after it). The count done.
   */
  refresh(db: Db, idle: () => Promise<void> = async () => {}): Promise<number> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<number> => {
      let done = 0;
      do {
        this.again = false;
        const stale = await db.query<{ id: number }>(
          `select p.id from project p left join pace_summary s
             on s.project_id = p.id and s.status = 'ALL' and s.rooms = 'all'
           where p.last_snapshot_date is not null and (s.data_version is null or s.data_version <> p.data_version)
           order by p.id`,
        );
        for (const p of stale) {
          // background work: it waits while people are using the app (each project is a few reads)
          await idle();
          if (this.stopped) return done;
          await this.derive(db, p.id).catch((error: unknown) => {
            // a project that vanished or changed meanwhile is derived when next read
            if (!(error instanceof NotFoundError)) throw error;
          });
          done++;
        }
      } while (this.again);
      return done;
    };
    this.refreshing = run().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Stops a refresh under way before its next project (the app is closing). */
  stop(): void {
    this.stopped = true;
    this.again = false;
  }

  /** Whether a refresh is under way (derivations in the background). */
  get busy(): boolean {
    return this.refreshing !== null;
  }

  /** Resolves when no refresh is under way. */
  async idle(): Promise<void> {
    await this.refreshing?.catch(() => undefined);
  }

  private async projects(
    db: Db,
    where: { developerId?: number; ids?: number[]; from?: string; to?: string },
  ): Promise<ProjectRow[]> {
    return db.query<ProjectRow>(
      `select p.id, p.name, p.data_version, p.developer_id, d.name as developer_name
       from project p join developer d on d.id = p.developer_id
       where p.last_snapshot_date is not null
         and ($1::int is null or p.developer_id = $1)
         and ($2::int[] is null or p.id = any($2::int[]))
         and ($3::date is null or p.last_snapshot_date >= $3::date)
         and ($4::date is null or p.first_snapshot_date <= $4::date)
       order by p.id`,
      [where.developerId ?? null, where.ids ?? null, where.from ?? null, where.to ?? null],
    );
  }

  /** The pace, index and avg ppm of a developer's projects, or of the whole market, as one union. */
  async marketPace(
    db: Db,
    q: { developerId?: number; from: string; to: string; rooms: RoomGroup; status: StatsStatus },
  ): Promise<MarketPaceResponse> {
    if (q.developerId !== undefined) await this.developerExists(db, q.developerId);
    const projects = await this.projects(db, { developerId: q.developerId, to: q.to });
    const summaries = await this.summaries(db, projects, q.status, q.rooms);
    const points = unionPace([...summaries.values()], toDay(q.from), toDay(q.to));
    return { projects: projects.length, points, last: points.at(-1) ?? null };
  }

  /**
   * The market's ranking over [from, to]: each project with data in the period, each developer and the
   * selection as a whole (unions of their projects), with the figures of the last day with data.
   */
  async market(
    db: Db,
    q: {
      from: string;
      to: string;
      status: StatsStatus;
      developerId?: number;
      priceClass?: MarketRow['priceClass'];
    },
  ): Promise<MarketResponse> {
    if (q.developerId !== undefined) await this.developerExists(db, q.developerId);
    const from = toDay(q.from);
    const to = toDay(q.to);
    const all = await this.projects(db, { developerId: q.developerId, from: q.from, to: q.to });
    const summaries = await this.summaries(db, all, q.status, 'all');
    const chosen: ProjectRow[] = [];
    const projects: MarketRow[] = [];
    for (const p of all) {
      const row = rowOf(unionPace([summaries.get(p.id)!], from, to), {
        id: p.id,
        name: p.name,
        developerId: p.developer_id,
        developerName: p.developer_name,
        projects: 1,
      });
      if (!row || (q.priceClass && row.priceClass !== q.priceClass)) continue;
      projects.push(row);
      chosen.push(p);
    }
    const byDeveloper = new Map<number, ProjectRow[]>();
    for (const p of chosen) byDeveloper.set(p.developer_id, [...(byDeveloper.get(p.developer_id) ?? []), p]);
    const developers: MarketRow[] = [];
    for (const [developerId, list] of byDeveloper) {
      const row = rowOf(
        unionPace(
          list.map((p) => summaries.get(p.id)!),
          from,
          to,
        ),
        {
          id: developerId,
          name: list[0].developer_name,
          developerId,
          developerName: list[0].developer_name,
          projects: list.length,
        },
      );
      if (row) developers.push(row);
    }
    const total = rowOf(
      unionPace(
        chosen.map((p) => summaries.get(p.id)!),
        from,
        to,
      ),
      { id: 0, name: 'Все', developerId: 0, developerName: '', projects: chosen.length },
    );
    return { from: q.from, to: q.to, projects, developers, total };
  }

  /** Each project's series of one metric over [from, to] (the days with data). */
  async compare(db: Db, q: Required<Omit<CompareRequest, 'projectIds'>> & { projectIds: number[] }) {
    const found = await this.projects(db, { ids: q.projectIds });
    const unknown = q.projectIds.filter((id) => !found.some((p) => p.id === id));
    if (unknown.length) throw new NotFoundError(`проект ${unknown.join(', ')} не найден`);
    const summaries = await this.summaries(db, found, q.status, 'all');
    const byId = new Map(found.map((p) => [p.id, p]));
    const response: CompareResponse = {
      metric: q.metric,
      series: q.projectIds.map((id) => {
        const p = byId.get(id)!;
        return {
          projectId: id,
          projectName: p.name,
          developerName: p.developer_name,
          points: unionPace([summaries.get(id)!], toDay(q.from), toDay(q.to)).map((point) => ({
            date: point.date,
            value: point[q.metric],
          })),
        };
      }),
    };
    return response;
  }

  private async developerExists(db: Db, developerId: number): Promise<void> {
    const [row] = await db.query('select id from developer where id = $1', [developerId]);
    if (!row) throw new NotFoundError(`застройщик ${developerId} не найден`);
  }
}

/** A ranking row from a union's series: the last day's figures and the index's change; null without data. */
function rowOf(
  series: UnionPoint[],
  who: Pick<MarketRow, 'id' | 'name' | 'developerId' | 'developerName' | 'projects'>,
): MarketRow | null {
  const last = series.at(-1);
  if (!last) return null;
  return {
    ...who,
    date: last.date,
    stock: last.stock,
    new30: last.new30,
    gone30: last.gone30,
    absorption: last.absorption,
    monthsOfSupply: last.monthsOfSupply,
    medianDaysOnMarket: last.medianDaysOnMarket,
    avgMeterPrice: last.avgMeterPrice,
    priceClass: priceClassOf(last.avgMeterPrice),
    indexChange: Math.round((last.index - 100) * 100) / 100,
  };
}

/**
 * What a project's summaries are derived from, read lean: days as numbers, and of each record only what
 * the filters and figures read (rooms, status, area, price). A summary is derived once per data version,
 * often for every project after an import; the full records of the pace reader cost twice the time.
 */
async function leanTimeline(db: Db, projectId: number) {
  const [project] = await db.query<{ data_version: number }>(
    'select data_version from project where id = $1',
    [projectId],
  );
  if (!project) throw new NotFoundError(`проект ${projectId} не найден`);
  const epoch = "date '1970-01-01'";
  const dates = (
    await db.query<{ d: number }>(
      `select date - ${epoch} as d from snapshot where project_id = $1 order by date`,
      [projectId],
    )
  ).map((r) => r.d);
  const byFlat = new Map<number, Segment[]>();
  for (const r of await db.query<{
    flat_id: number;
    s: number;
    e: number | null;
    rooms: number;
    area: number;
    price: number | string;
    status: FlatRecord['status'];
  }>(
    `select flat_id, start_day - ${epoch} as s, end_day - ${epoch} as e, rooms, area, price, status
     from flat_segment where project_id = $1`,
    [projectId],
  )) {
    const list = byFlat.get(r.flat_id) ?? [];
    list.push({
      flatId: r.flat_id,
      startDay: r.s,
      endDay: r.e,
      rec: { rooms: r.rooms, area: r.area, price: Number(r.price), status: r.status } as FlatRecord,
    });
    byFlat.set(r.flat_id, list);
  }
  const events = new Map<number, FlatEvent[]>();
  for (const e of await db.query<{
    d: number;
    flat_id: number;
    kind: FlatEvent['kind'];
    rooms: number;
    status: FlatRecord['status'];
  }>(
    `select day - ${epoch} as d, flat_id, kind, rooms, status from flat_event
     where project_id = $1 and kind in ('NEW', 'REMOVED')`,
    [projectId],
  )) {
    const list = events.get(e.d) ?? [];
    list.push({
      flatId: e.flat_id,
      kind: e.kind,
      rec: { rooms: e.rooms, status: e.status } as FlatRecord,
      oldPrice: null,
      newPrice: null,
      changePercent: null,
      oldArea: null,
    });
    events.set(e.d, list);
  }
  const firstSeen = new Map<number, number>();
  for (const r of await db.query<{ flat_id: number; d: number }>(
    `select flat_id, min(snapshot_date) - ${epoch} as d from flat_observation where project_id = $1 and present
     group by flat_id`,
    [projectId],
  ))
    firstSeen.set(r.flat_id, r.d);
  return { dates, segments: [...byFlat.values()], events, firstSeen, version: project.data_version };
}
