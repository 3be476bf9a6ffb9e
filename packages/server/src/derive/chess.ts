import { gzipSync } from 'node:zlib';
import type { ChessResponse } from '@cena-metra/contract';
import { chessboard, chessResponse } from '../analytics/chess.js';
import type { ProjectModel } from '../analytics/model.js';
import { compareNatural } from '../analytics/natural.js';
import type { Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';

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
  const selling = new Set<string>();
  for (const segs of model.segments.values())
    for (const s of segs) {
      names.add(s.rec.building);
      if (s.startDay <= at && (s.endDay ?? at) >= at) selling.add(s.rec.building);
    }
  const buildings = [...names].sort(compareNatural);
  const building = buildings.find((b) => selling.has(b)) ?? buildings[0] ?? null;
  const shown = { projectId: model.projectId, building, buildings, dates: model.dates };
  if (building === null) return chessResponse({ ...shown, day: at, since: null, board: null });
  const flats: Segment[][] = [];
  const ids = [...model.segments.keys()]
    .filter((id) => model.segments.get(id)!.some((s) => s.rec.building === building))
    .sort((a, b) => a - b);
  for (const id of ids) {
    // the latest segment started by the day, whatever its building (a flat moved away leaves the board)
    let latest: Segment | null = null;
    for (const s of model.segments.get(id)!)
      if (s.startDay <= at && (!latest || s.startDay > latest.startDay)) latest = s;
    if (latest) flats.push([latest]);
  }
  const board = chessboard(flats, firstSeen, building, at, at, at);
  return chessResponse({ ...shown, day: at, since: null, board });
}

/**
 * Keeps the project's first chessboard (`chess_latest`, gzipped JSON): every import of the project rewrites
 * it, so a first look at the chessboard reads one row instead of the building's timeline.
 */
export async function keepChess(db: Db, model: ProjectModel, firstSeen: Map<number, number>): Promise<void> {
  await db.query('delete from chess_latest where project_id = $1', [model.projectId]);
  const chess = latestChess(model, firstSeen);
  if (!chess) return;
  await db.query('insert into chess_latest (project_id, body) values ($1, $2)', [
    model.projectId,
    gzipSync(JSON.stringify(chess)),
  ]);
}
