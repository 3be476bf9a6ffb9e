import {
  MARKET_FIRST_VIEW_DAYS,
  type MarketPaceResponse,
  type MarketResponse,
  type MarketRow,
  NO_PLACE,
  type PlaceGroup,
  type PriceClass,
  placeKey,
  placeParent,
  type RoomGroup,
  type StatsStatus,
} from '@cena-metra/contract';
import { DayParts, type DaySums, type RankSummary, unionLast } from '../analytics/pace-last.js';
import { periodOf, type UnionSpan, unionDaySums, unionSpanSteps } from '../analytics/pace-union.js';
import { EMPTY_PACKED, type PackedSummary, packedBytes } from '../analytics/packed-summary.js';
import type { Db } from '../db/driver.js';
import { bytes, decodeSpan } from '../db/kept.js';
import { rankStart } from '../db/kept-rank.js';
import { decodePacked } from '../db/pace-form.js';
import { developerExists } from '../db/queries/catalog.js';
import { paceSummariesEach } from '../db/queries/kept-pace.js';
import { keptSpan } from '../db/queries/market-spans.js';
import { fromDay, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { groupBy } from '../lib/group.js';
import { Slices, stepped } from '../lib/steps.js';
import { MarketProjects, type ProjectRow } from './market-projects.js';
import { projectClassOf, rowOf, unionClassOf } from './market-rows.js';
import {
  inPlace,
  inSegment,
  KEPT_SCOPE_MIN,
  membersVersion,
  type PlaceFilters,
  scopeOf,
} from './market-scopes.js';
import { RANK_CACHE_BYTES, RankReader } from './rank-reader.js';
import { ProjectCache, type ReadCache } from './read-cache.js';
import { RegistryHeld } from './registry-held.js';

const variantKey = (status: StatsStatus, rooms: RoomGroup) => `${status}:${rooms}`;

/** A held span's bytes: its points (~220 B each as objects) and its day sums. */
const spanBytes = (s: UnionSpan) => s.points.length * 250;

/** A ranking's selection (§10.5–10.6, DESIGN §11.3). */
export type RankingQuery = {
  from: string;
  to: string;
  status: StatsStatus;
  developerId?: number;
  priceClass?: MarketRow['priceClass'];
} & PlaceFilters;

/** The selection's projects in the ranking (`chosen`, their `projects` rows), and what its unions reuse. */
interface ProjectRows {
  selection: string;
  partsKey: string;
  parts: DayParts;
  ranks: Map<number, RankSummary>;
  chosen: ProjectRow[];
  projects: MarketRow[];
}

/**
 * A developer's and the market's sales pace and index and the market's ranking (§10.5–10.6; «Сравнение» is
 * market-compare.ts), recomputed over unions of projects from each project's pace summaries, which the import
 * keeps (`pace_summary`, derive/pace.ts): a fresh process reads them, never a project's timeline.
 */
export class MarketReader {
  /** the selections' project rows being read (`projectRows`), by selection */
  private readonly reading = new Map<string, Promise<ProjectRows>>();
  private readonly cache: ProjectCache<Map<string, PackedSummary>>;
  private readonly rankReader: RankReader;
  /** the ranking's own share of the cache: its months, its projects' day figures, its unions' day sums */
  private readonly ranked: ReadCache;
  private readonly list: MarketProjects;
  /** the state registry's objects and histories, held per its version (DESIGN §12.3) */
  readonly registry: RegistryHeld;

  constructor(private readonly shared: ReadCache) {
    this.registry = new RegistryHeld(shared);
    this.cache = new ProjectCache(shared, 'market', (m) =>
      [...m.values()].reduce((sum, s) => sum + packedBytes(s), 0),
    );
    this.ranked = shared.part('rank', RANK_CACHE_BYTES);
    this.rankReader = new RankReader(this.ranked);
    this.list = new MarketProjects(shared);
  }

  /** The summaries of `projects` for one filter, in columns: from memory, else as kept. */
  async summaries(
    db: Db,
    projects: Pick<ProjectRow, 'id' | 'data_version'>[],
    status: StatsStatus,
    rooms: RoomGroup,
  ): Promise<Map<number, PackedSummary>> {
    const key = variantKey(status, rooms);
    const out = new Map<number, PackedSummary>();
    const missing: Pick<ProjectRow, 'id' | 'data_version'>[] = [];
    for (const p of projects) {
      const s = this.cache.held(p.id, p.data_version)?.get(key);
      if (s) out.set(p.id, s);
      else missing.push(p);
    }
    if (missing.length === 0) return out;
    // held beside the project's other filters (its entry measured again), or as its first
    const hold = (p: Pick<ProjectRow, 'id' | 'data_version'>, summary: PackedSummary) => {
      const held = this.cache.held(p.id, p.data_version);
      if (held) {
        held.set(key, summary);
        this.cache.grown(p.id);
      } else this.cache.keep(p.id, p.data_version, new Map([[key, summary]]));
      out.set(p.id, summary);
    };
    const unread = new Map(missing.map((p) => [p.id, p]));
    // each project's parts (a year each, in order: analytics/pace-parts.ts) decoded as one summary as they
    // come, in slices of the thread: a request waits for one at most
    const slices = new Slices();
    const read = (ids: number[]) =>
      paceSummariesEach(db, status, rooms, ids, async (id, parts) => {
        await slices.turn();
        // out of the unread once held: a body that cannot be decoded fails the read again, not skipped
        const summary = decodePacked(parts);
        hold(unread.get(id)!, summary);
        unread.delete(id);
      });
    // a replica lost mid-answer fails the read (db/replicas.ts): what came whole is held, the rest read again
    await read(missing.map((p) => p.id)).catch(() => read([...unread.keys()]));
    // a project with snapshots has its summaries from the import that stored them
    for (const p of unread.values()) hold(p, EMPTY_PACKED);
    return out;
  }

  /** The market's projects with data, in id order (the kept scopes' members). */
  projects(db: Db): Promise<ProjectRow[]> {
    return this.list.select(db, {});
  }

  /**
   * Computes «Рынок»'s first view — its 90 days to today, every status (web: readMarketFilters) — before it
   * is asked for, and holds what its ranking reads and makes (rank months, day figures, unions' day sums): a
   * server at its start and once imports pause (else its first ranking read 36 MB of months at 5,000
   * projects: ~0.8 s of its ~1 s). From the 90th day before the market's last day when that is earlier.
   */
  async holdFirstRanking(db: Db, today: string): Promise<void> {
    const view = await this.rankReader.hold(db, async () => {
      const last = await this.list.lastDay(db);
      if (last === null) return null;
      const to = toDay(today);
      const from = Math.min(last, to) - MARKET_FIRST_VIEW_DAYS;
      const projects = await this.list.select(db, { from: fromDay(from), to: today });
      return { projects, status: 'ALL' as const, from, to };
    });
    if (view) await this.market(db, { from: fromDay(view.from), to: fromDay(view.to), status: 'ALL' });
  }

  /** A union's whole span from its members' summaries, added in the members' order (the kept spans' too). */
  async span(
    db: Db,
    members: Pick<ProjectRow, 'id' | 'data_version'>[],
    status: StatsStatus,
    rooms: RoomGroup,
  ): Promise<UnionSpan> {
    const summaries = await this.summaries(db, members, status, rooms);
    // in slices of the thread: the whole market's sweep is ~0.3 s of it
    return stepped(unionSpanSteps(members.map((p) => summaries.get(p.id)!)));
  }

  /** The pace, index and avg ppm of a developer's projects, or of the whole market, as one union. */
  async marketPace(
    db: Db,
    q: {
      developerId?: number;
      from: string;
      to: string;
      rooms: RoomGroup;
      status: StatsStatus;
      priceClass?: PriceClass;
    } & PlaceFilters,
  ): Promise<MarketPaceResponse> {
    if (q.developerId !== undefined) await this.developerExists(db, q.developerId);
    // the selection's whole span (every project of it, whenever its lists), held per set of its members'
    // data versions: a period is a slice with its index chained again (pace-union.ts), not another sweep
    // over every project; a project whose lists begin after the period changes nothing of it
    const chosen = (p: ProjectRow) => inSegment(p, q);
    const members = (await this.list.select(db, { developerId: q.developerId })).filter(chosen);
    const projects = (await this.list.select(db, { developerId: q.developerId, to: q.to })).filter(chosen);
    // the whole market's, a developer's, a place's span as kept (use-cases/market-spans.ts) while its members'
    // data are those it was made from; else (a combination of filters, a scope too small to keep, or the
    // keeper not yet round) made here — the same function of the same summaries, so the same points
    const scope = scopeOf(q);
    const name =
      scope ??
      [q.developerId, q.region, q.city, q.district, q.station, q.priceClass].map((v) => v ?? '').join(':');
    const span = await this.unionSpan(db, { scope, name }, members, q.status, q.rooms);
    const points = periodOf(span, toDay(q.from), toDay(q.to));
    return { projects: projects.length, points, last: points.at(-1) ?? null };
  }

  /**
   * The whole span of a union of `members`: held per set of their data versions; else as kept for `scope`
   * (use-cases/market-spans.ts) while the kept row was made from these members' data; else made here — the
   * same function of the same summaries, so the same points. `name` tells apart the unions held.
   */
  async unionSpan(
    db: Db,
    { scope, name }: { scope: string | null; name: string },
    members: ProjectRow[],
    status: StatsStatus,
    rooms: RoomGroup,
  ): Promise<UnionSpan> {
    const key = `market-span:${status}:${rooms}:${name}`;
    const version = membersVersion(members);
    let span = this.shared.get<UnionSpan>(key, version);
    // a scope smaller than kept has no row: no query for it
    if (!span && scope && (scope === 'market' || members.length >= KEPT_SCOPE_MIN)) {
      const kept = await keptSpan(db, scope, status, rooms);
      if (kept?.members === version) span = decodeSpan(bytes(kept.body));
    }
    if (!span) span = await this.span(db, members, status, rooms);
    this.shared.set(key, version, span, spanBytes);
    return span;
  }

  /**
   * The market's ranking over [from, to]: each project with data in the period, each developer and the
   * selection as a whole (unions of their projects), with the figures of the last day with data and the
   * index's change over the period — read from the rank summaries on that day alone (pace-last.ts).
   */
  async market(
    db: Db,
    q: RankingQuery & { groupBy?: PlaceGroup; projects?: boolean },
  ): Promise<MarketResponse> {
    const from = toDay(q.from);
    const to = toDay(q.to);
    const { selection, partsKey, parts, ranks, chosen, projects: rows } = await this.projectRows(db, q);
    // the projects' rows sent unless left out (their unions are made of them all the same)
    const projects = q.projects === false ? [] : rows;
    /** A union of the chosen projects as a row: its figures on its last day with data, held day sums. */
    const rowById = new Map(rows.map((r) => [r.id, r]));
    const unionRow = (key: string, list: ProjectRow[], meta: Parameters<typeof rowOf>[1]) => {
      const members = list.map((p) => ranks.get(p.id)!);
      // the members and their data: the union's held day sums and its figures on a day are theirs
      const version = membersVersion(list);
      return rowOf(
        unionLast(
          members,
          from,
          to,
          parts,
          this.daySums(`union:${key}:${selection}`, version, members, from, to),
          `${key}:${version}`,
        ),
        meta,
        unionClassOf(list.map((p) => rowById.get(p.id))),
      );
    };
    const developers: MarketRow[] = [];
    for (const list of groupBy(chosen, (p) => String(p.developer_id)).values()) {
      const { developer_id: developerId, developer_name: name } = list[0];
      const row = unionRow(`developer:${developerId}`, list, {
        id: developerId,
        name,
        developerId,
        developerName: name,
        projects: list.length,
      });
      if (row) developers.push(row);
    }
    const total = unionRow('all', chosen, {
      id: 0,
      name: 'Все',
      developerId: 0,
      developerName: '',
      projects: chosen.length,
    });
    const by = q.groupBy;
    if (!by) {
      this.ranked.remeasure(partsKey);
      return { from: q.from, to: q.to, projects, developers, total, places: null };
    }
    // a place within its parent (a district of its city, a city of its region): «Академический» of
    // Moscow and of Yekaterinburg are two rows; the parent is the row's own field
    const placeOf = (p: ProjectRow) => {
      const name = placeKey(p.place, by) ?? NO_PLACE;
      return { name, parent: (name !== NO_PLACE && placeParent(p.place, by)) || '' };
    };
    const places: MarketRow[] = [];
    for (const [key, list] of groupBy(chosen, (p) => {
      const { name, parent } = placeOf(p);
      return `${parent}\u0000${name}`;
    })) {
      const { name, parent } = placeOf(list[0]);
      const row = unionRow(`${by}:${key}`, list, {
        id: places.length + 1,
        name,
        developerId: 0,
        developerName: '',
        projects: list.length,
      });
      if (row) row.parent = parent;
      if (row) places.push(row);
    }
    this.ranked.remeasure(partsKey);
    return { from: q.from, to: q.to, projects, developers, total, places: { by, rows: places } };
  }

  /**
   * The selection's projects with data in the period and their rows (the ranking's, the map's): asked at
   * once by «Рынок»'s ranking and its map, one reading of their summaries serves both.
   */
  projectRows(db: Db, q: RankingQuery): Promise<ProjectRows> {
    const key = [q.from, q.to, q.status, q.developerId, q.priceClass, q.region, q.city, q.district, q.station]
      .map((v) => v ?? '')
      .join(':');
    const pending = this.reading.get(key);
    if (pending) return pending;
    const read = this.readProjectRows(db, q).finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }

  private async readProjectRows(db: Db, q: RankingQuery): Promise<ProjectRows> {
    if (q.developerId !== undefined) await this.developerExists(db, q.developerId);
    const from = toDay(q.from);
    const to = toDay(q.to);
    const all = (await this.list.select(db, { developerId: q.developerId, from: q.from, to: q.to })).filter(
      (p) => inPlace(p.place, q),
    );
    // every filter in the held sums' keys: one selection's unions never evict another's
    const selection = [q.status, q.developerId, q.priceClass, q.region, q.city, q.district, q.station]
      .map((v) => v ?? '')
      .join(':');
    const ranks = await this.rankReader.ranks(db, all, q.status, from, to);
    const partsKey = `parts:${selection}`;
    const parts = this.dayParts(partsKey, all);
    const chosen: ProjectRow[] = [];
    const projects: MarketRow[] = [];
    for (const p of all) {
      const row = rowOf(
        unionLast([ranks.get(p.id)!], from, to, parts),
        { id: p.id, name: p.name, developerId: p.developer_id, developerName: p.developer_name, projects: 1 },
        projectClassOf(p),
      );
      if (!row || (q.priceClass && row.priceClass !== q.priceClass)) continue;
      projects.push(row);
      chosen.push(p);
    }
    return { selection, partsKey, parts, ranks, chosen, projects };
  }

  /**
   * The projects' day figures of a selection's rankings (pace-last.ts), held per set of its members' data
   * versions: another period of the same data reads each project's last day again from memory, not from
   * its summary (a ranking grows it in place and measures it again when done).
   */
  private dayParts(key: string, projects: ProjectRow[]): DayParts {
    const version = membersVersion(projects);
    let parts = this.ranked.get<DayParts>(key, version);
    if (!parts) {
      parts = new DayParts(projects.length);
      this.ranked.set(key, version, parts, (v) => v.bytes());
    }
    return parts;
  }

  /**
   * A union's index day sums (§10.6) from the first day the ranking read of every member on (`rankStart`) to
   * its last day with data: made once per set of its members' data versions and held, so a ranking over
   * another period of the same data chains its index over them, not every project's days again (pace-last.ts).
   */
  private daySums(
    key: string,
    /** the members' `membersVersion` */
    version: string,
    summaries: RankSummary[],
    from: number,
    to: number,
  ): DaySums | undefined {
    const held = this.ranked.get<{ start: number; sums: DaySums | null }>(key, version);
    if (held && held.start <= from) return held.sums ?? undefined;
    const used = summaries.filter((s) => s.dates.length > 0);
    if (used.length < 2) return undefined;
    const start = rankStart(from, to);
    let end = start;
    for (const s of used) end = Math.max(end, s.ends[s.ends.length - 1]);
    const sums = unionDaySums(used, start, end);
    this.ranked.set(key, version, { start, sums }, (v) => 100 + (v.sums?.days.length ?? 0) * 24);
    return sums ?? undefined;
  }

  private async developerExists(db: Db, developerId: number): Promise<void> {
    if (!(await developerExists(db, developerId)))
      throw new NotFoundError(`застройщик ${developerId} не найден`);
  }
}
