import type { StatsRequest, StatsResponse, StatsStatus } from '@cena-metra/contract';
import { buildCubes } from '../analytics/cube.js';
import { PackedFlats } from '../analytics/packed-flats.js';
import {
  countLabels,
  type FlatOnDay,
  GROUPS,
  recordCounts,
  shortFlatSummary,
  statsResponseOf,
  statsSeries,
} from '../analytics/stats.js';
import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import { flatOnDay, lastDataDay } from '../analytics/windows.js';
import type { Db } from '../db/driver.js';
import { bytes, inflate } from '../db/kept.js';
import { columnsOfTexts, decodeColumnsMonth } from '../db/kept-columns.js';
import { decodeSeriesMonth, monthLayout } from '../db/kept-series.js';
import { keptSummary } from '../db/queries/kept-latest.js';
import { seriesColumnsOfStatus, seriesOfStatus } from '../db/queries/kept-stats.js';
import { projectSpanOf } from '../db/queries/projects.js';
import { readSegments } from '../db/records.js';
import { fromDay, minusMonths, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { type BodyEncoding, compressBody } from './encoding.js';
import { ProjectCache, ReadCache } from './read-cache.js';
import { type KeptColumns, SeriesColumns } from './stats-columns.js';
import { type ChunkedBody, joined, SeriesJson } from './stats-json.js';

interface CachedProject {
  version: number;
  days: number[];
  lastDay: number | null;
  /** summary tables (JSON) by day A and status */
  summaries: Map<string, string>;
  json: SeriesJson;
  /** the same series in columns (the web's form), parsed from the tracks on first demand */
  columns: SeriesColumns;
  /** the kept months of each status (gzip, with their days), read on its first request, until laid out */
  months: Partial<Record<StatsStatus, { days: number[]; body: Buffer }[] | 'laid out'>>;
  /** the kept months in columns of each status, read on its first answer in columns */
  columnMonths: Partial<Record<StatsStatus, KeptColumns[]>>;
  /** recent response bodies by range, with their compressed forms made on first demand */
  bodies: Map<string, StatsBody>;
  /** bytes of the months not yet laid out */
  monthBytes: number;
}

export type StatsEncoding = BodyEncoding;
/** The answer's shape: the seed's points (`/project/stats`), or columns (`/project/stats/columns`, §12.2). */
export type StatsForm = 'points' | 'columns';

/** A request as the route has it after validation: the status defaults to ALL (§10.2). */
const withStatus = (r: StatsRequest) => ({ ...r, status: r.status ?? ('ALL' as StatsStatus) });

interface StatsBody {
  json: ChunkedBody;
  gzip?: Buffer;
  br?: Buffer;
}

/** Response bodies kept per project version (the dashboard asks for a few ranges over and over). */
const BODIES_PER_PROJECT = 8;

/**
 * Answers §4.2 from the kept data (DESIGN §11.1): each snapshot day's series as the response writes it
 * (`series_month`) and the summary table of the last day (`project_latest`), so a first request only reads
 * and stitches. Another day A's summary table is one indexed query over the timeline, cached per day.
 */
export class StatsReader {
  private readonly cache: ProjectCache<CachedProject>;
  /** flats active on a day A with their discount references, by project (version) and A */
  private readonly active: ProjectCache<Map<number, PackedFlats>>;

  /** the carry-forward limit C (§10.1, MAX_CARRY_DAYS) */
  private readonly carry: number;

  constructor({
    carry = DEFAULT_CARRY_DAYS,
    cache = new ReadCache(),
  }: { carry?: number; cache?: ReadCache } = {}) {
    this.carry = carry;
    // a 3-year daily project's series hold a few MB (fragments, months not yet laid out, bodies)
    this.cache = new ProjectCache(cache, 'stats', StatsReader.bytesOf);
    // active flats packed: ~150 B a flat
    this.active = new ProjectCache(cache, 'active', (byDay) => {
      let bytes = 0;
      for (const p of byDay.values()) bytes += p.bytes;
      return bytes;
    });
  }

  async projectVersion(db: Db, projectId: number) {
    const row = await projectSpanOf(db, projectId);
    if (!row) throw new NotFoundError(`проект ${projectId} не найден`);
    return row;
  }

  /**
   * The project's series as kept, with the months of `status` in the answer's form read (one query per
   * status, form and version).
   */
  private async cached(
    db: Db,
    projectId: number,
    status: StatsStatus,
    form: StatsForm = 'points',
  ): Promise<CachedProject> {
    const project = await this.projectVersion(db, projectId);
    let read: { days: number[]; load: (entry: CachedProject) => void } | null = null;
    const readForm = async () =>
      form === 'points' ? this.seriesMonths(db, projectId, status) : this.columnMonths(db, projectId, status);
    const entry = await this.cache.get(projectId, project.data_version, async () => {
      read = await readForm();
      const json = new SeriesJson(
        read.days,
        (s) => {
          // the months are let go as they are laid out (all of a status at once)
          const gz = entry.months[s];
          if (!Array.isArray(gz)) throw new Error(`stats: the months of ${s} are not read`);
          entry.months[s] = 'laid out';
          entry.monthBytes -= gz.reduce((sum, m) => sum + m.body.length, 0);
          return gz.map((m) => monthLayout(inflate(m.body), m.days));
        },
        this.carry,
      );
      const entry: CachedProject = {
        version: project.data_version,
        days: read.days,
        json,
        columns: new SeriesColumns(json, (s) => {
          const months = entry.columnMonths[s];
          if (!months) throw new Error(`stats: the columns of ${s} are not read`);
          return months;
        }),
        months: {},
        columnMonths: {},
        bodies: new Map(),
        lastDay: project.last_snapshot_date ? toDay(project.last_snapshot_date) : null,
        summaries: new Map(),
        monthBytes: 0,
      };
      return entry;
    });
    const loaded = form === 'points' ? entry.months[status] : entry.columnMonths[status];
    if (!loaded) {
      // read for this entry, or read now (another status or form of a project already held)
      const r = (read as typeof read) ?? (await readForm());
      if (r.days.length !== entry.days.length || r.days.some((d, k) => d !== entry.days[k]))
        throw new Error(`series_month of project ${projectId} changed under data version ${entry.version}`);
      r.load(entry);
      this.cache.grown(projectId);
    }
    return entry;
  }

  /** The project's kept series under a status: its snapshot days in order and its months as kept (gzip). */
  private async seriesMonths(db: Db, projectId: number, status: StatsStatus) {
    const rows = await seriesOfStatus(db, projectId, status);
    const months = rows.map((r) => ({ days: r.days, body: bytes(r.body) }));
    return {
      days: rows.flatMap((r) => r.days),
      load: (entry: CachedProject) => {
        entry.months[status] = months;
        entry.monthBytes += months.reduce((sum, m) => sum + m.body.length, 0);
      },
    };
  }

  /**
   * The project's kept columns under a status (db/kept-columns.ts): its snapshot days in order and its
   * months decoded; a month kept before migration 26 has its columns made from its series text.
   */
  private async columnMonths(db: Db, projectId: number, status: StatsStatus) {
    const rows = await seriesColumnsOfStatus(db, projectId, status);
    const months: KeptColumns[] = rows.map((r) => {
      if (r.columns !== null) return { days: r.days, ...decodeColumnsMonth(r.columns) };
      const columns = columnsOfTexts(
        decodeSeriesMonth(bytes(r.series!), r.days),
        GROUPS.length,
        countLabels(status).length,
      );
      return { days: r.days, columns, bytes: JSON.stringify(columns).length };
    });
    return {
      days: rows.flatMap((r) => r.days),
      load: (entry: CachedProject) => {
        entry.columnMonths[status] = months;
      },
    };
  }

  /** Bytes a cached project holds: fragments, months not yet laid out, response bodies. */
  private static bytesOf(p: CachedProject) {
    let bytes = p.json.bytes + p.columns.bytes + p.monthBytes;
    // an uncompressed body is mostly views of the fragments counted above: its gathered chunks are its own
    for (const b of p.bodies.values()) bytes += b.json.gathered + (b.gzip?.length ?? 0) + (b.br?.length ?? 0);
    return bytes;
  }

  /**
   * The response as objects, from the timeline (not from the kept series, not cached): the reference the
   * JSON bytes of `statsResponse` are tested against.
   */
  async getProjectStats(db: Db, asked: StatsRequest): Promise<StatsResponse> {
    const request = withStatus(asked);
    const project = await this.cached(db, request.projectId, request.status);
    const byFlat = await readSegments(db, request.projectId);
    const cubes = buildCubes([...byFlat.values()], project.days);
    const series = statsSeries(
      project.days,
      cubes,
      toDay(request.from),
      toDay(request.to),
      this.carry,
      request.status,
    );
    // the summary table from the timeline, never the kept one: the reference the kept bytes are held to
    const a = lastDataDay(project.days, toDay(request.to), this.carry);
    return statsResponseOf(
      series,
      a === null
        ? []
        : shortFlatSummary(
            (await this.flatsOnDay(db, request.projectId, a, project.lastDay ?? a)).filter((f) =>
              recordCounts(f.rec, request.status),
            ),
          ),
    );
  }

  /**
   * The response for the API: its ETag (project, data version, range), and the body in the best encoding
   * the client accepts, compressed once per version and range rather than per request.
   */
  async statsResponse(
    db: Db,
    asked: StatsRequest,
    accept: StatsEncoding | null,
    ifNoneMatch?: string,
    form: StatsForm = 'points',
  ) {
    const request = withStatus(asked);
    const project = await this.cached(db, request.projectId, request.status, form);
    const key = `${form}|${request.from}|${request.to}|${request.status}`;
    const status = request.status === 'ALL' ? '' : `-${request.status}`;
    const etag = `"${form === 'points' ? 's' : 'c'}${request.projectId}-${project.version}-${request.from}-${request.to}${status}"`;
    if (ifNoneMatch === etag) return { etag, body: null, encoding: null };
    let body = project.bodies.get(key);
    if (body) {
      project.bodies.delete(key);
      project.bodies.set(key, body);
    } else {
      const summary = await this.summary(db, request, project);
      const [from, to] = [toDay(request.from), toDay(request.to)];
      body = {
        json:
          form === 'points'
            ? project.json.response(from, to, summary, request.status)
            : project.columns.body(from, to, summary, request.status),
      };
      project.bodies.set(key, body);
      while (project.bodies.size > BODIES_PER_PROJECT)
        project.bodies.delete(project.bodies.keys().next().value!);
    }
    // compressed once per body, when a client first takes that encoding (a first request pays no gzip it
    // does not ask for); a full-history body is megabytes of JSON but a few hundred KB gzipped
    let compressed: Buffer | null = null;
    if (accept === 'gzip') compressed = body.gzip ??= compressBody(joined(body.json), 'gzip');
    if (accept === 'br') compressed = body.br ??= compressBody(joined(body.json), 'br');
    this.cache.grown(request.projectId);
    return compressed && accept
      ? { etag, body: compressed, encoding: accept }
      : { etag, body: body.json, encoding: null };
  }

  /**
   * The summary table (JSON) on A = the last data day ≤ to: kept for the project's last day, else made from
   * the timeline; cached per A, status and data version.
   */
  private async summary(
    db: Db,
    request: StatsRequest & { status: StatsStatus },
    project: CachedProject,
  ): Promise<string> {
    const to = toDay(request.to);
    const a = lastDataDay(project.days, to, this.carry);
    if (a === null) return '[]';
    const key = `${a}|${request.status}`;
    let summary = project.summaries.get(key);
    if (summary === undefined) {
      const kept =
        a === project.lastDay ? await keptSummary(db, request.projectId, request.status, fromDay(a)) : null;
      summary =
        kept ??
        JSON.stringify(shortFlatSummary(await this.activeFlats(db, request.projectId, a, request.status)));
      project.summaries.set(key, summary);
    }
    return summary;
  }

  /** The flats active on A with their timeline over the last year before A. */
  async flatsOnDay(db: Db, projectId: number, a: number, lastDay: number) {
    const byFlat = await readSegments(
      db,
      projectId,
      `s.start_day <= $2::date and coalesce(s.end_day, $3::date) >= $4::date
       and s.flat_id in (select flat_id from flat_segment where project_id = $1 and start_day <= $2::date
                         and coalesce(end_day, $3::date) >= $2::date)`,
      [fromDay(a), fromDay(lastDay), fromDay(minusMonths(a, 12))],
    );
    const out = [];
    for (const segs of byFlat.values()) {
      const f = flatOnDay(segs, a, lastDay);
      if (f) out.push(f);
    }
    return out;
  }

  /**
   * The flats active on A, read once per data version and day: the summary table and the discount
   * endpoints share them instead of querying the timeline on every request.
   */
  async activeFlats(db: Db, projectId: number, a: number, status: StatsStatus = 'ALL'): Promise<FlatOnDay[]> {
    const flats = await this.allActiveFlats(db, projectId, a);
    return status === 'ALL' ? flats : flats.filter((f) => recordCounts(f.rec, status));
  }

  private async allActiveFlats(db: Db, projectId: number, a: number): Promise<FlatOnDay[]> {
    // the project row (one indexed read) says all this needs: its version and span. The decoded cube of
    // `cached` is not needed here — decoding every project's cube made the market's discounts slow.
    const project = await this.projectVersion(db, projectId);
    if (!project.first_snapshot_date || a < toDay(project.first_snapshot_date)) return [];
    const byDay = await this.active.get(projectId, project.data_version, () => new Map());
    const packed = byDay.get(a);
    if (packed) return packed.unpack();
    const lastDay = project.last_snapshot_date ? toDay(project.last_snapshot_date) : a;
    const flats = await this.flatsOnDay(db, projectId, a, lastDay);
    if (byDay.size >= 32) byDay.delete(byDay.keys().next().value!);
    byDay.set(a, PackedFlats.pack(flats));
    this.active.grown(projectId);
    return flats;
  }
}
