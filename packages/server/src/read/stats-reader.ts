import type { ShortFlatSummary, StatsRequest, StatsResponse, StatsStatus } from '@cena-metra/contract';
import { decodeCells } from '../analytics/cube.js';
import { PackedFlats } from '../analytics/packed-flats.js';
import {
  type FlatOnDay,
  recordCounts,
  shortFlatSummary,
  statsResponseOf,
  statsSeries,
} from '../analytics/stats.js';
import { DEFAULT_CARRY_DAYS, type Segment } from '../analytics/types.js';
import { flatOnDay, lastDataDay } from '../analytics/windows.js';
import type { Db } from '../db/driver.js';
import { RECORD_COLUMNS, recordFromRow } from '../db/records.js';
import { fromDay, minusMonths, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { type BodyEncoding, compressBody } from './encoding.js';
import { ProjectCache } from './project-cache.js';
import { SeriesJson } from './stats-json.js';

interface CachedProject {
  version: number;
  days: number[];
  lastDay: number | null;
  /** summary tables by day A and status */
  summaries: Map<string, ShortFlatSummary[]>;
  json: SeriesJson;
  /** recent response bodies by range, with their compressed forms made on first demand */
  bodies: Map<string, StatsBody>;
  /** length of the cubes not yet turned into fragments */
  encodedBytes: number;
}

export type StatsEncoding = BodyEncoding;

interface StatsBody {
  json?: Buffer;
  gzip: Buffer;
  br?: Buffer;
}

/** Bodies up to this size are also kept uncompressed. */
const KEEP_JSON_BYTES = 256 * 1024;

/**
 * Projects whose series are kept, and the bytes they may hold together (fragments, encoded cubes not yet
 * turned into fragments, response bodies). A 3-year daily project holds a few MB; a year of weekly ones
 * a few hundred KB.
 */
const SERIES_PROJECTS = 512;
const SERIES_BYTES = 192 * 1024 * 1024;

/** Projects whose active flats are kept, and the bytes they may hold together (packed: ~150 B a flat). */
const ACTIVE_PROJECTS = 512;
const ACTIVE_BYTES = 128 * 1024 * 1024;

/** Response bodies kept per project version (the dashboard asks for a few ranges over and over). */
const BODIES_PER_PROJECT = 8;

/**
 * Answers §4.2 from the derived tables: the project's decoded cube is cached per data version, so a
 * request only walks days; the summary table is one indexed query over the timeline, cached per day A.
 */
export class StatsReader {
  private readonly cache: ProjectCache<CachedProject>;
  /** flats active on a day A with their discount references, by project (version) and A */
  private readonly active = new ProjectCache<Map<number, PackedFlats>>(
    ACTIVE_PROJECTS,
    ACTIVE_BYTES,
    (byDay) => {
      let bytes = 0;
      for (const p of byDay.values()) bytes += p.bytes;
      return bytes;
    },
  );

  /** the carry-forward limit C (§10.1, MAX_CARRY_DAYS) */
  private readonly carry: number;

  constructor({
    maxProjects = SERIES_PROJECTS,
    maxBytes = SERIES_BYTES,
    carry = DEFAULT_CARRY_DAYS,
  }: { maxProjects?: number; maxBytes?: number; carry?: number } = {}) {
    this.carry = carry;
    this.cache = new ProjectCache(maxProjects, maxBytes, StatsReader.bytesOf);
  }

  async projectVersion(db: Db, projectId: number) {
    const [row] = await db.query<{
      data_version: number;
      first_snapshot_date: string | null;
      last_snapshot_date: string | null;
    }>('select data_version, first_snapshot_date, last_snapshot_date from project where id = $1', [
      projectId,
    ]);
    if (!row) throw new NotFoundError(`проект ${projectId} не найден`);
    return row;
  }

  private async cached(db: Db, projectId: number): Promise<CachedProject> {
    const project = await this.projectVersion(db, projectId);
    return this.cache.get(projectId, project.data_version, async () => {
      const rows = await this.cubeRows(db, projectId);
      const days = rows.map((r) => toDay(r.day));
      // cubes stay encoded (one string each) until a range first covers them
      const cells: (string | null)[] = rows.map((r) => r.cells);
      const entry: CachedProject = {
        version: project.data_version,
        days,
        json: new SeriesJson(
          days,
          (k, keep) => {
            const text = cells[k]!;
            if (!keep) {
              cells[k] = null;
              entry.encodedBytes -= text.length;
            }
            return decodeCells(text);
          },
          this.carry,
        ),
        bodies: new Map(),
        lastDay: project.last_snapshot_date ? toDay(project.last_snapshot_date) : null,
        summaries: new Map(),
        encodedBytes: cells.reduce((sum, c) => sum + c!.length, 0),
      };
      return entry;
    });
  }

  private cubeRows(db: Db, projectId: number) {
    return db.query<{ day: string; cells: string }>(
      'select day, cells from daily_cube where project_id = $1 order by day',
      [projectId],
    );
  }

  /** Bytes a cached project holds: fragments, cubes still encoded, response bodies. */
  private static bytesOf(p: CachedProject) {
    let bytes = p.json.bytes + p.encodedBytes;
    for (const b of p.bodies.values()) bytes += b.gzip.length + (b.json?.length ?? 0) + (b.br?.length ?? 0);
    return bytes;
  }

  /**
   * The response as objects, from the cubes (not cached): the reference the JSON bytes of
   * `statsResponse` are tested against.
   */
  async getProjectStats(db: Db, request: StatsRequest): Promise<StatsResponse> {
    const project = await this.cached(db, request.projectId);
    const rows = await this.cubeRows(db, request.projectId);
    const days = rows.map((r) => toDay(r.day));
    const cubes = rows.map((r) => decodeCells(r.cells));
    const series = statsSeries(
      days,
      cubes,
      toDay(request.from),
      toDay(request.to),
      this.carry,
      request.status,
    );
    return statsResponseOf(series, await this.summary(db, request, project));
  }

  /**
   * The response for the API: its ETag (project, data version, range), and the body in the best encoding
   * the client accepts, compressed once per version and range rather than per request.
   */
  async statsResponse(db: Db, request: StatsRequest, accept: StatsEncoding | null, ifNoneMatch?: string) {
    const project = await this.cached(db, request.projectId);
    const key = `${request.from}|${request.to}|${request.status}`;
    const status = request.status === 'ALL' ? '' : `-${request.status}`;
    const etag = `"s${request.projectId}-${project.version}-${request.from}-${request.to}${status}"`;
    if (ifNoneMatch === etag) return { etag, body: null, encoding: null };
    let body = project.bodies.get(key);
    let json: Buffer | undefined;
    if (body) {
      project.bodies.delete(key);
      project.bodies.set(key, body);
      json = body.json;
    } else {
      const summary = await this.summary(db, request, project);
      json = project.json.response(toDay(request.from), toDay(request.to), summary, request.status);
      // a full-history body is megabytes of JSON but a few hundred KB gzipped: large bodies are kept
      // compressed only, and rebuilt from the fragments (a few ms) for a client that takes no gzip
      body = { json: json.length <= KEEP_JSON_BYTES ? json : undefined, gzip: compressBody(json, 'gzip') };
      project.bodies.set(key, body);
      while (project.bodies.size > BODIES_PER_PROJECT)
        project.bodies.delete(project.bodies.keys().next().value!);
      this.cache.evict();
    }
    const rebuild = async () =>
      project.json.response(
        toDay(request.from),
        toDay(request.to),
        await this.summary(db, request, project),
        request.status,
      );
    if (accept === 'gzip') return { etag, body: body.gzip, encoding: 'gzip' as const };
    if (accept === 'br') {
      body.br ??= compressBody(json ?? (await rebuild()), 'br');
      return { etag, body: body.br, encoding: 'br' as const };
    }
    return { etag, body: json ?? (await rebuild()), encoding: null };
  }

  /** The summary table on A = the last data day ≤ to, cached per A, status and data version. */
  private async summary(db: Db, request: StatsRequest, project: CachedProject) {
    const to = toDay(request.to);
    const a = lastDataDay(project.days, to, this.carry);
    if (a === null) return [];
    const key = `${a}|${request.status}`;
    let summary = project.summaries.get(key);
    if (!summary) {
      summary = await this.summaryOn(db, request.projectId, a, request.status);
      project.summaries.set(key, summary);
    }
    return summary;
  }

  /** The flats active on A with their timeline over the last year before A. */
  async flatsOnDay(db: Db, projectId: number, a: number, lastDay: number) {
    const rows = await db.query<
      Record<string, never> & { flat_id: number; start_day: string; end_day: string | null }
    >(
      `select s.flat_id, s.start_day, s.end_day, ${RECORD_COLUMNS.split(', ')
        .map((c) => `s.${c}`)
        .join(', ')}
       from flat_segment s
       where s.project_id = $1 and s.start_day <= $2 and coalesce(s.end_day, $3) >= $4
         and s.flat_id in (select flat_id from flat_segment
                           where project_id = $1 and start_day <= $2 and coalesce(end_day, $3) >= $2)
       order by s.flat_id, s.start_day`,
      [projectId, fromDay(a), fromDay(lastDay), fromDay(minusMonths(a, 12))],
    );
    const byFlat = new Map<number, Segment[]>();
    for (const r of rows) {
      let list = byFlat.get(r.flat_id);
      if (!list) {
        list = [];
        byFlat.set(r.flat_id, list);
      }
      list.push({
        flatId: r.flat_id,
        startDay: toDay(r.start_day),
        endDay: r.end_day === null ? null : toDay(r.end_day),
        rec: recordFromRow(r as never),
      });
    }
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
    this.active.evict();
    return flats;
  }

  private async summaryOn(
    db: Db,
    projectId: number,
    a: number,
    status: StatsStatus,
  ): Promise<ShortFlatSummary[]> {
    return shortFlatSummary(await this.activeFlats(db, projectId, a, status));
  }
}
