import { gzipSync } from 'node:zlib';
import type { ChessResponse } from '@cena-metra/contract';
import { chessboard, chessResponse } from '../analytics/chess.js';
import type { ProjectModel } from '../analytics/model.js';
import { compareNatural } from '../analytics/natural.js';
import type { Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { saveLatestChess } from '../db/queries/kept-latest.js';
import { readBuildingFlats, readBuildings, readSegmentsOn } from '../db/records.js';

/**
 * The chessboard a project first shows (§10.7: its last day, the first building with a flat on sale then,
 * else the first), made from the import's model as the chessboard reader makes it from the timeline: the
 * buildings of every segment, the building's flats (any segment in it), each flat's latest segment started
 * by the day and its kept first presence. Null for a project without snapshots.
 */
export function latestChess(model: ProjectModel, firstSeen: Map<number, number>): ChessResponse | null {
  const n = model.dates.length;
  if (n === 0) return null;
  const at = model.dates[n - 1];
  const names = new Set<string>();
  for (const segs of model.segments.values()) for (const s of segs) names.add(s.rec.building);
  const buildings = [...names].sort(compareNatural);
  const building = firstSelling(model, buildings, at);
  const ids = [...model.segments.keys()]
    .filter((id) => model.segments.get(id)!.some((s) => s.rec.building === building))
    .sort((a, b) => a - b);
  const flats: Segment[] = [];
  for (const id of ids) {
    // the latest segment started by the day, whatever its building (a flat moved away leaves the board)
    let latest: Segment | null = null;
    for (const s of model.segments.get(id)!)
      if (s.startDay <= at && (!latest || s.startDay > latest.startDay)) latest = s;
    if (latest) flats.push(latest);
  }
  return board(model, buildings, building, flats, firstSeen);
}

/**
 * The same chessboard for a model of an append's window (ingest/store.ts), which holds the segments
 * running in its window only: the buildings and a building's flats are read from the timeline as the
 * chessboard reader reads them, after the import wrote its segments.
 */
async function latestChessOfWindow(
  db: Db,
  model: ProjectModel,
  firstSeen: Map<number, number>,
): Promise<ChessResponse | null> {
  const n = model.dates.length;
  if (n === 0) return null;
  const at = model.dates[n - 1];
  const buildings = (await readBuildings(db, model.projectId)).sort(compareNatural);
  const building = firstSelling(model, buildings, at);
  const flats =
    building === null
      ? []
      : (
          await readSegmentsOn(
            db,
            model.projectId,
            await readBuildingFlats(db, model.projectId, building),
            at,
          )
        ).sort((a, b) => a.flatId - b.flatId);
  return board(model, buildings, building, flats, firstSeen);
}

/** The first building (natural order) with a flat on sale on day `at` (the model holds them all), else the first. */
function firstSelling(model: ProjectModel, buildings: string[], at: number): string | null {
  const selling = new Set<string>();
  for (const segs of model.segments.values())
    for (const s of segs) if (s.startDay <= at && (s.endDay ?? at) >= at) selling.add(s.rec.building);
  return buildings.find((b) => selling.has(b)) ?? buildings[0] ?? null;
}

function board(
  model: ProjectModel,
  buildings: string[],
  building: string | null,
  flats: Segment[],
  firstSeen: Map<number, number>,
): ChessResponse {
  const at = model.dates[model.dates.length - 1];
  const shown = { projectId: model.projectId, building, buildings, dates: model.dates };
  if (building === null) return chessResponse({ ...shown, day: at, since: null, board: null });
  const cells = chessboard(
    flats.map((s) => [s]),
    firstSeen,
    building,
    at,
    at,
    at,
  );
  return chessResponse({ ...shown, day: at, since: null, board: cells });
}

/**
 * Keeps the project's first chessboard (`chess_latest`, gzipped JSON): every import of the project rewrites
 * it, so a first look at the chessboard reads one row instead of the building's timeline.
 */
export async function keepChess(db: Db, model: ProjectModel, firstSeen: Map<number, number>): Promise<void> {
  const chess = model.known ? await latestChessOfWindow(db, model, firstSeen) : latestChess(model, firstSeen);
  await saveLatestChess(db, model.projectId, chess ? gzipSync(JSON.stringify(chess)) : null);
}
