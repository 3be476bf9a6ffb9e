import type { ChessCellView, ChessResponse } from '@cena-metra/contract';
import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';
import { compareNatural } from './natural.js';
import type { FlatRecord, Segment } from './types.js';

/** One flat of a chessboard on day D (DESIGN §10.7). */
export interface ChessCell {
  flatId: number;
  /** `active`: on sale on D (available or reserved); `gone`: seen before D, not active on D */
  state: 'active' | 'gone';
  rec: FlatRecord;
  /** the first day it was listed, and the last day it was active up to D */
  firstSeen: number;
  lastSeen: number;
  /** D − first presence for an active flat; last − first for a gone one */
  daysOnMarket: number;
  /** its price on the `since` day when it was active then, else null */
  priceSince: number | null;
}

export interface ChessFloor {
  floor: number;
  /** the floor's flats by number, in natural order */
  cells: ChessCell[];
}

export interface ChessSection {
  section: string | null;
  /** top floor first */
  floors: ChessFloor[];
}

export interface Chessboard {
  sections: ChessSection[];
  /** flats without a floor or a number: a strip below the board */
  strip: ChessCell[];
}

/**
 * The chessboard of building `building` on day `day` (a day with data, read at its snapshot `at`): every
 * flat seen in the building up to then, with its record on D when active there, else its last record. A
 * flat's building is that of its latest record, so a flat moved to another building leaves this one.
 * `flats` are the activity segments per flat; `firstSeen` the first presences; `since` a day whose prices
 * the cells carry for «change since».
 */
export function chessboard(
  flats: Segment[][],
  firstSeen: Map<number, number>,
  building: string,
  day: number,
  at: number,
  lastSnapshot: number,
  since: number | null = null,
  sinceAt: number | null = null,
): Chessboard {
  const cells: ChessCell[] = [];
  for (const segs of flats) {
    // the flat's latest segment started by D
    const i = lowerBound(
      segs.map((s) => s.startDay),
      at + 1,
    );
    if (i === 0) continue;
    const seg = segs[i - 1];
    if (seg.rec.building !== building) continue;
    const end = seg.endDay ?? lastSnapshot;
    const active = end >= at;
    const first = firstSeen.get(seg.flatId) ?? segs[0].startDay;
    const last = active ? day : end;
    let priceSince: number | null = null;
    if (sinceAt !== null && since !== null)
      for (const s of segs)
        if (s.startDay <= sinceAt && (s.endDay ?? lastSnapshot) >= sinceAt) priceSince = s.rec.price;
    cells.push({
      flatId: seg.flatId,
      state: active ? 'active' : 'gone',
      rec: seg.rec,
      firstSeen: first,
      lastSeen: last,
      daysOnMarket: last - first,
      priceSince,
    });
  }
  return place(cells);
}

/** Places cells by section (natural order, none last), floor (top first) and number (natural order). */
export function place(cells: ChessCell[]): Chessboard {
  const strip: ChessCell[] = [];
  const sections = new Map<string | null, Map<number, ChessCell[]>>();
  for (const c of cells) {
    if (c.rec.floor === null || c.rec.number === null) {
      strip.push(c);
      continue;
    }
    const floors = sections.get(c.rec.section) ?? new Map<number, ChessCell[]>();
    sections.set(c.rec.section, floors);
    floors.set(c.rec.floor, [...(floors.get(c.rec.floor) ?? []), c]);
  }
  // by number in natural order, flats without one last
  const byNumber = (a: ChessCell, b: ChessCell) =>
    (a.rec.number === null ? 1 : 0) - (b.rec.number === null ? 1 : 0) ||
    compareNatural(a.rec.number ?? '', b.rec.number ?? '') ||
    a.flatId - b.flatId;
  return {
    sections: [...sections.entries()]
      .sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : compareNatural(a, b)))
      .map(([section, floors]) => ({
        section,
        floors: [...floors.entries()]
          .sort(([a], [b]) => b - a)
          .map(([floor, list]) => ({ floor, cells: list.sort(byNumber) })),
      })),
    strip: strip.sort((a, b) => byNumber(a, b)),
  };
}

const cellView = (c: ChessCell): ChessCellView => ({
  flatId: c.flatId,
  state: c.state,
  status: c.rec.status,
  section: c.rec.section,
  floor: c.rec.floor,
  number: c.rec.number,
  rooms: c.rec.rooms,
  area: c.rec.area,
  price: c.rec.price,
  meterPrice: Math.round((c.rec.price / c.rec.area) * 100) / 100,
  firstSeen: fromDay(c.firstSeen),
  lastSeen: fromDay(c.lastSeen),
  daysOnMarket: c.daysOnMarket,
  priceSince: c.priceSince,
});

/**
 * The chessboard's response (§10.7) as the API sends it, read live or kept by the import for the project's
 * last day (derive/chess.ts): the same object from the same figures, field for field.
 */
export function chessResponse(o: {
  projectId: number;
  building: string | null;
  buildings: string[];
  dates: number[];
  /** the day shown (null: no day with data) and the change-since day */
  day: number | null;
  since: number | null;
  board: Chessboard | null;
}): ChessResponse {
  return {
    projectId: o.projectId,
    building: o.building,
    buildings: o.buildings,
    dates: o.dates.map(fromDay),
    date: o.day === null ? null : fromDay(o.day),
    since: o.since === null ? null : fromDay(o.since),
    sections: (o.board?.sections ?? []).map((sec) => ({
      section: sec.section,
      floors: sec.floors.map((f) => ({ floor: f.floor, cells: f.cells.map(cellView) })),
    })),
    strip: (o.board?.strip ?? []).map(cellView),
  };
}
