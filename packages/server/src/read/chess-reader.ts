import type { ChessResponse } from '@cena-metra/contract';
import { lastCarriedDay } from '../analytics/carry.js';
import { chessboard, chessResponse } from '../analytics/chess.js';
import { compareNatural } from '../analytics/natural.js';
import type { Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { bytes, inflate } from '../db/kept.js';
import { keptChess } from '../db/queries/kept-latest.js';
import {
  firstBuildingOnSale,
  firstSeenDays,
  projectDataVersion,
  snapshotDays,
} from '../db/queries/projects.js';
import { readBuildingFlats, readBuildings, readSegmentsOn } from '../db/records.js';
import { fromDay, toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { lowerBound } from '../lib/sorted.js';
import { ProjectCache, type ReadCache } from './read-cache.js';

/** What the chessboard of a project reads, per data version: a building's flats when first asked. */
interface ChessData {
  dates: number[];
  buildings: string[];
  /** the default building of a snapshot day */
  selling: Map<number, string | undefined>;
  /** per building: its flats and their first presences */
  boards: Map<string, { ids: number[]; firstSeen: Map<number, number> }>;
  bytes: number;
}

/**
 * The chessboard (§10.7) of a project's building on a day: the project's dates and buildings, then one
 * building's flats (their segments and kept first presences) when first asked — a few hundred flats, not
 * the project's timeline — kept per data version for the slider's next days.
 */
export class ChessReader {
  /** per project: dates, buildings and the boards asked for */
  private readonly chessCache: ProjectCache<ChessData>;

  constructor(
    readonly carry: number,
    cache: ReadCache,
  ) {
    this.chessCache = new ProjectCache(cache, 'chess', (d) => d.bytes);
  }

  /**
   * The chessboard of a building on a day (§10.7): the last day with data on or before `date` (by default
   * the project's last), every flat seen in the building by then; `since` gives the cells' earlier prices.
   */
  async chess(
    db: Db,
    q: { projectId: number; building?: string; date?: string; since?: string },
  ): Promise<ChessResponse> {
    // the first look (its last day, the default building) as the import kept it: one row
    if (q.building === undefined && q.date === undefined && q.since === undefined) {
      const kept = await keptChess(db, q.projectId);
      if (kept !== null) return JSON.parse(inflate(bytes(kept)).toString('utf8')) as ChessResponse;
    }
    const d = await this.chessData(db, q.projectId);
    const n = d.dates.length;
    const buildings = d.buildings;
    if (q.building !== undefined && !buildings.includes(q.building))
      throw new NotFoundError(`корпус «${q.building}» в проекте ${q.projectId} не найден`);
    // the snapshot a day reads, and the day itself clamped to the days with data after that snapshot
    const read = (date: string | undefined) => {
      const k = date === undefined ? n - 1 : lowerBound(d.dates, toDay(date) + 1) - 1;
      if (k < 0) return null;
      const end = lastCarriedDay(d.dates[k], k + 1 < n ? d.dates[k + 1] : null, this.carry);
      return { at: d.dates[k], day: date === undefined ? d.dates[k] : Math.min(toDay(date), end) };
    };
    const on = read(q.date);
    const since = q.since === undefined ? null : read(q.since);
    // by default the first building with flats on sale that day (a sold-out one is all grey), else the first
    const selling =
      on && q.building === undefined ? await this.selling(db, q.projectId, d, on.at) : undefined;
    const building = q.building ?? selling ?? buildings[0] ?? null;
    const shown = { projectId: q.projectId, building, buildings, dates: d.dates };
    if (!on || building === null)
      return chessResponse({ ...shown, day: on?.day ?? null, since: null, board: null });
    const flats = await this.board(db, q.projectId, d, building);
    const board = chessboard(
      await this.segmentsOn(db, q.projectId, flats.ids, on.at, since?.at ?? null, d.dates[n - 1]),
      flats.firstSeen,
      building,
      on.day,
      on.at,
      d.dates[n - 1],
      since?.day ?? null,
      since?.at ?? null,
    );
    return chessResponse({ ...shown, day: on.day, since: since?.day ?? null, board });
  }

  /** A project's snapshot dates and buildings for the chessboard, read once per data version. */
  private async chessData(db: Db, projectId: number): Promise<ChessData> {
    const version = await projectDataVersion(db, projectId);
    if (version === null) throw new NotFoundError(`проект ${projectId} не найден`);
    return this.chessCache.get(projectId, version, async () => {
      const dates = await snapshotDays(db, projectId);
      const buildings = (await readBuildings(db, projectId)).sort(compareNatural);
      return { dates, buildings, selling: new Map(), boards: new Map(), bytes: 1_000 };
    });
  }

  /** The first building (natural order) with a flat on sale at snapshot day `at`. */
  private async selling(db: Db, projectId: number, d: ChessData, at: number): Promise<string | undefined> {
    if (!d.selling.has(at)) {
      // building by building in their order, each an index lookup that stops at its first flat on sale
      d.selling.set(
        at,
        await firstBuildingOnSale(
          db,
          projectId,
          d.buildings,
          fromDay(at),
          fromDay(d.dates[d.dates.length - 1]),
        ),
      );
    }
    return d.selling.get(at);
  }

  /**
   * What a board of day `at` reads of each flat: its latest segment started by then and, for the changes
   * since an earlier day, the one running that day — two rows a flat at most, not its timeline.
   */
  private async segmentsOn(
    db: Db,
    projectId: number,
    ids: number[],
    at: number,
    sinceAt: number | null,
    lastDay: number,
  ): Promise<Segment[][]> {
    const byFlat = new Map<number, Segment[]>();
    const add = (s: Segment) => {
      const list = byFlat.get(s.flatId) ?? [];
      if (!list.some((x) => x.startDay === s.startDay)) list.push(s);
      list.sort((a, b) => a.startDay - b.startDay);
      byFlat.set(s.flatId, list);
    };
    if (sinceAt !== null)
      for (const s of await readSegmentsOn(db, projectId, ids, sinceAt, { lastDay })) add(s);
    for (const s of await readSegmentsOn(db, projectId, ids, at)) add(s);
    return [...byFlat.values()];
  }

  /** Every flat ever seen in a building and its first presence (a few hundred flats, not the project's). */
  private async board(db: Db, projectId: number, d: ChessData, building: string) {
    let board = d.boards.get(building);
    if (!board) {
      // the building's flats from the index, then their first presences by key
      const ids = await readBuildingFlats(db, projectId, building);
      const firstSeen = await firstSeenDays(db, projectId, ids);
      board = { ids, firstSeen };
      d.boards.set(building, board);
      d.bytes += ids.length * 60;
      this.chessCache.grown(projectId);
    }
    return board;
  }
}
