import type {
  DistributionResponse,
  FlatCard,
  IndexResponse,
  PaceResponse,
  PaceRowsResponse,
  RoomGroup,
  StatsStatus,
} from '@cena-metra/contract';
import { ROOM_GROUPS, SETTLEMENT_DONE } from '@cena-metra/contract';
import { lastCarriedDay } from '../analytics/carry.js';
import { ppmDistribution, ppmPercentile } from '../analytics/distribution.js';
import type { FlatEvent } from '../analytics/events.js';
import { type PaceSummary, paceSummariesBy, paceSummary } from '../analytics/pace-summary.js';
import { projectPace, unionIndex } from '../analytics/pace-union.js';
import type { PackedSummary } from '../analytics/packed-summary.js';
import { GROUP_FILTERS, recordCounts, summaryRowId } from '../analytics/stats.js';
import type { FlatRecord, Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { keptDistribution } from '../db/queries/kept-latest.js';
import { arrivalAndRemovalRows } from '../db/queries/kept-pace.js';
import { firstSeenDays, projectDataVersion, snapshotDays } from '../db/queries/projects.js';
import { DONE_DATE, readSegments } from '../db/records.js';
import { fromDay, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { lowerBound } from '../lib/sorted.js';
import type { MarketReader } from './market-reader.js';
import { ProjectCache, type ReadCache } from './read-cache.js';

/** What pace and the index of a project are computed from, read once per data version. */
export interface PaceData {
  projectId: number;
  dates: number[];
  segments: Segment[][];
  events: Map<number, FlatEvent[]>;
  firstSeen: Map<number, number>;
  bytes: number;
  /** the project's data version read with it */
  version: number;
  /** pace summaries of filters asked so far */
  summaries: Map<string, PaceSummary>;
}

/**
 * Sales pace (§10.5) and the same-flat index (§10.6) of a project from its derived tables: activity
 * segments, events and first presences, read once per data version and kept in the project cache.
 */
export class PaceReader {
  private readonly cache: ProjectCache<PaceData>;

  /**
   * `market`: a project's whole-project summaries (no building) are the market's, derived in the background
   * after imports and stored; without it (or for a building) they are made here from the timeline.
   */
  constructor(
    readonly carry: number,
    cache: ReadCache,
    private readonly market?: MarketReader,
  ) {
    this.cache = new ProjectCache(cache, 'pace', (d) => d.bytes);
  }

  /**
   * The stored whole-project summaries of some filters (404 for an unknown project), or null without
   * `market`: one query for the project's data version, then the market's cache.
   */
  private async stored(
    db: Db,
    projectId: number,
    filters: { status: StatsStatus; rooms: RoomGroup }[],
  ): Promise<PackedSummary[] | null> {
    if (!this.market) return null;
    const version = await projectDataVersion(db, projectId);
    if (version === null) throw new NotFoundError(`проект ${projectId} не найден`);
    const row = [{ id: projectId, data_version: version }];
    const out: PackedSummary[] = [];
    for (const f of filters)
      out.push((await this.market.summaries(db, row, f.status, f.rooms)).get(projectId)!);
    return out;
  }

  /** The project's timeline as pace reads it (cached per data version); 404 for an unknown project. */
  async data(db: Db, projectId: number): Promise<PaceData> {
    const version = await projectDataVersion(db, projectId);
    if (version === null) throw new NotFoundError(`проект ${projectId} не найден`);
    return this.cache.get(projectId, version, async () => {
      const dates = await snapshotDays(db, projectId);
      const byFlat = await readSegments(db, projectId);
      const events = new Map<number, FlatEvent[]>();
      for (const e of await arrivalAndRemovalRows(db, projectId)) {
        const day = Number(e[0]);
        const list = events.get(day) ?? [];
        list.push({
          flatId: Number(e[1]),
          kind: e[2] as FlatEvent['kind'],
          // only what the filters read: building, rooms, status, and the summary rows' finish and completion
          rec: {
            building: e[3],
            rooms: Number(e[4]),
            area: Number(e[5]),
            status: e[6],
            facing: e[7],
            settlementDate: e[8] === DONE_DATE ? SETTLEMENT_DONE : e[8],
          } as FlatRecord,
          oldPrice: null,
          newPrice: null,
          changePercent: null,
          oldArea: null,
        });
        events.set(day, list);
      }
      const firstSeen = await firstSeenDays(db, projectId);
      const segments = [...byFlat.values()];
      let count = 0;
      for (const s of segments) count += s.length;
      return {
        projectId,
        dates,
        segments,
        events,
        firstSeen,
        bytes: count * 200 + firstSeen.size * 40,
        version,
        summaries: new Map(),
      };
    });
  }

  async pace(
    db: Db,
    q: {
      projectId: number;
      from: string;
      to: string;
      building?: string;
      rooms: RoomGroup;
      status: StatsStatus;
    },
  ): Promise<PaceResponse> {
    const group = GROUP_FILTERS[q.rooms];
    const accept = (rec: FlatRecord) =>
      group(rec.rooms) &&
      (q.building === undefined || rec.building === q.building) &&
      recordCounts(rec, q.status);
    // the project's summary for the filter, read as a union of one (held to the day-by-day reading of
    // §10.5 by the tests), without a sweep of every snapshot per request. The whole project's is stored;
    // a building's is made from the timeline and kept with it.
    const summary =
      (q.building === undefined ? (await this.stored(db, q.projectId, [q]))?.[0] : null) ??
      this.summary(
        await this.data(db, q.projectId),
        `${q.building ?? ''}\u0001${q.rooms}\u0001${q.status}`,
        accept,
      );
    const points = projectPace(summary, toDay(q.from), toDay(q.to));
    return { points, last: points.at(-1) ?? null };
  }

  /** The project's pace summary for a filter, made once per data version and kept with the timeline. */
  private summary(d: PaceData, key: string, accept: (rec: FlatRecord) => boolean): PaceSummary {
    let summary = d.summaries.get(key);
    if (!summary) {
      summary = paceSummary(d.segments, d.events, d.firstSeen, d.dates, this.carry, accept);
      d.summaries.set(key, summary);
      d.bytes += summary.dates.length * 80 + summary.removals.length * 40;
      this.cache.grown(d.projectId);
    }
    return summary;
  }

  /**
   * Pace per row of the summary table on `date` (§4.2's rows: building × completion × finish × rooms of
   * the flats active that day): absorption over 30 days, the median days on market of the flats gone in
   * them, and the median age of the row's stock.
   */
  async rows(db: Db, q: { projectId: number; date: string; status: StatsStatus }): Promise<PaceRowsResponse> {
    const d = await this.data(db, q.projectId);
    const day = toDay(q.date);
    const k = lowerBound(d.dates, day + 1) - 1;
    const keys = new Set<string>();
    if (k >= 0) {
      const at = d.dates[k];
      const lastDay = d.dates[d.dates.length - 1];
      for (const segs of d.segments)
        for (const s of segs)
          if (s.startDay <= at && (s.endDay ?? lastDay) >= at && recordCounts(s.rec, q.status))
            keys.add(summaryRowId(s.rec));
    }
    // every row's summary, each from its own flats, read on the day as a union of one
    const ids = [...keys];
    const summaries = paceSummariesBy(d.segments, d.events, d.firstSeen, d.dates, this.carry, (rec) => {
      if (!recordCounts(rec, q.status)) return undefined;
      const id = summaryRowId(rec);
      return keys.has(id) ? id : undefined;
    });
    const rows = ids.map((id) => {
      const summary = summaries.get(id);
      const point = summary ? projectPace(summary, day, day).at(-1) : undefined;
      return {
        id,
        absorption30: point?.absorption ?? null,
        medianDaysOnMarket: point?.medianDaysOnMarket ?? null,
        medianStockAge: point?.medianStockAge ?? null,
      };
    });
    return { date: q.date, rows };
  }

  /** The flats active on the last day with data ≤ `date` (by default the project's last), with that day. */
  private async activeOn(db: Db, projectId: number, date?: string) {
    const d = await this.data(db, projectId);
    const n = d.dates.length;
    const k = date === undefined ? n - 1 : lowerBound(d.dates, toDay(date) + 1) - 1;
    // a day after the carried days of its snapshot has no data: its last day with data is the carried end
    if (k < 0) return { day: null, flats: [] as Segment[] };
    const at = d.dates[k];
    const lastDay = d.dates[n - 1];
    const flats: Segment[] = [];
    for (const segs of d.segments)
      for (const s of segs) if (s.startDay <= at && (s.endDay ?? lastDay) >= at) flats.push(s);
    const end = lastCarriedDay(at, k + 1 < n ? d.dates[k + 1] : null, this.carry);
    return { day: date === undefined ? at : Math.min(toDay(date), end), flats };
  }

  /** The ppm histogram per room group of the flats active on a day (§10.5's stock). */
  async distribution(
    db: Db,
    q: { projectId: number; date?: string; status: StatsStatus },
  ): Promise<DistributionResponse> {
    // the project's last day is kept by the import (derive/latest.ts); a date on or after it reads that day
    const kept = await keptDistribution(db, q.projectId, q.status, q.date ?? null);
    if (kept !== null) return JSON.parse(kept) as DistributionResponse;
    const { day, flats } = await this.activeOn(db, q.projectId, q.date);
    return {
      date: day === null ? null : fromDay(day),
      groups: ppmDistribution(flats.filter((s) => recordCounts(s.rec, q.status)).map((s) => s.rec)),
    };
  }

  /** Where a flat's ppm stands among its project's flats of its room group on sale on the last day with data. */
  async percentile(db: Db, projectId: number, flatId: number): Promise<FlatCard['percentile']> {
    const { day, flats } = await this.activeOn(db, projectId);
    const own = flats.find((s) => s.flatId === flatId);
    if (day === null || !own) return null;
    const group = ROOM_GROUPS.find((g) => g !== 'all' && GROUP_FILTERS[g](own.rec.rooms)) ?? 'all';
    const peers = flats.filter((s) => GROUP_FILTERS[group](s.rec.rooms)).map((s) => s.rec.price / s.rec.area);
    const value = ppmPercentile(own.rec.price / own.rec.area, peers);
    return value === null ? null : { value, group, of: peers.length, date: fromDay(day) };
  }

  async index(db: Db, q: { projectId: number; from: string; to: string }): Promise<IndexResponse> {
    // the index of every flat of each group, whatever its status
    const stored = await this.stored(
      db,
      q.projectId,
      ROOM_GROUPS.map((rooms) => ({ status: 'ALL' as const, rooms })),
    );
    const d = stored ? null : await this.data(db, q.projectId);
    return {
      series: ROOM_GROUPS.map((group, i) => ({
        group,
        points: unionIndex(
          [
            stored?.[i] ??
              this.summary(d!, `\u0001${group}\u0001ALL`, (rec) => GROUP_FILTERS[group](rec.rooms)),
          ],
          toDay(q.from),
          toDay(q.to),
        ),
      })),
    };
  }
}
