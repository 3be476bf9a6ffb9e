import type { FlatEvent } from '../analytics/events.js';
import type { ProjectModel } from '../analytics/model.js';
import { rankSummaryOf } from '../analytics/pace-last.js';
import { PACE_VARIANTS, type PaceSummary, paceSummaries, variantFilter } from '../analytics/pace-summary.js';
import type { FlatRecord, Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { base64, bytes, decodeSummary, encodeSummary } from '../db/kept.js';
import { rankMonths } from '../db/kept-rank.js';
import { fromDay } from '../lib/days.js';

/** The summaries last kept for a model (in PACE_VARIANTS order), while the importer keeps the model. */
const held = new WeakMap<ProjectModel, PaceSummary[]>();

/** The model's segments, flats in id order: the order the summaries' sums are made in, on every path. */
function segmentsInFlatOrder(model: ProjectModel): Segment[][] {
  return [...model.segments.entries()].sort((a, b) => a[0] - b[0]).map(([, segs]) => segs);
}

/** The kept NEW and REMOVED events from `fromDay` on, as the sweep reads them (rooms and status). */
async function eventsFrom(db: Db, projectId: number, fromDay_: number) {
  const epoch = "date '1970-01-01'";
  const events = new Map<number, FlatEvent[]>();
  for (const e of await db.query<{
    d: number;
    flat_id: number;
    kind: FlatEvent['kind'];
    rooms: number;
    status: FlatRecord['status'];
  }>(
    `select day - ${epoch} as d, flat_id, kind, rooms, status from flat_event
     where project_id = $1 and day >= $2::date and kind in ('NEW', 'REMOVED') order by day, flat_id`,
    [projectId, fromDay(fromDay_)],
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
  return events;
}

async function storedSummaries(db: Db, projectId: number): Promise<PaceSummary[] | null> {
  const rows = await db.query<{ status: string; rooms: string; body: string }>(
    `select status, rooms, ${base64('body')} from pace_summary where project_id = $1`,
    [projectId],
  );
  const byKey = new Map(rows.map((r) => [`${r.status}:${r.rooms}`, r.body]));
  const out: PaceSummary[] = [];
  for (const v of PACE_VARIANTS) {
    const body = byKey.get(`${v.status}:${v.rooms}`);
    if (!body) return null;
    out.push(decodeSummary(bytes(body)));
  }
  return out;
}

/**
 * Brings the project's pace summaries (§10.5–10.6, every variant) up to date after its derived data
 * changed from snapshot index `fromK` on (0: everything), and stores them; `firstSeen` is each flat's
 * first presence as kept. The entries before `fromK`
 * stand; the sweep reads the events it needs from the kept events, so call this after they are written.
 */
export async function keepPace(
  db: Db,
  model: ProjectModel,
  firstSeen: Map<number, number>,
  fromK: number,
): Promise<PaceSummary[]> {
  const n = model.dates.length;
  let previous: PaceSummary[] | null = null;
  if (fromK > 0) previous = held.get(model) ?? (await storedSummaries(db, model.projectId));
  // the previous summaries must cover the snapshots before fromK as they are now
  const k = previous?.every((s) => s.dates.length >= fromK && sameStart(s.dates, model.dates, fromK))
    ? fromK
    : 0;
  // a model of an append's window holds the segments from its window on: the sweep must start there
  if (model.known && k !== fromK)
    throw new Error(`the kept pace summaries of project ${model.projectId} do not match its snapshots`);
  const events = await eventsFrom(db, model.projectId, n ? model.dates[k] : 0);
  const summaries = paceSummaries(
    segmentsInFlatOrder(model),
    events,
    firstSeen,
    model.dates,
    model.carry,
    PACE_VARIANTS.map((v) => variantFilter(v.status, v.rooms)),
    k > 0 ? { k, previous: previous! } : undefined,
  );
  await db.query('delete from pace_summary where project_id = $1', [model.projectId]);
  if (n > 0) {
    const params: unknown[] = [model.projectId];
    const values = PACE_VARIANTS.map((v, i) => {
      params.push(v.status, v.rooms, encodeSummary(summaries[i]));
      const at = params.length;
      return `($1, $${at - 2}, $${at - 1}, $${at})`;
    });
    await db.query(
      `insert into pace_summary (project_id, status, rooms, body) values ${values.join(', ')}`,
      params,
    );
  }
  await keepRanks(db, model.projectId, summaries);
  held.set(model, summaries);
  return summaries;
}

/**
 * The ranking's form of the summaries of every room (the market ranks by those), a month to a row
 * (db/kept-rank.ts): `summaries` in PACE_VARIANTS order.
 */
async function keepRanks(db: Db, projectId: number, summaries: PaceSummary[]): Promise<void> {
  // the months as kept: those whose bytes are the same stay, the rest are replaced or dropped
  const kept = new Map(
    (
      await db.query<{ status: string; m: number; hash: string }>(
        `select status, month - date '1970-01-01' as m, hash from rank_month where project_id = $1`,
        [projectId],
      )
    ).map((r) => [`${r.status}:${r.m}`, r.hash]),
  );
  const params: unknown[] = [projectId];
  const values: string[] = [];
  for (const [i, v] of PACE_VARIANTS.entries()) {
    if (v.rooms !== 'all') continue;
    for (const m of rankMonths(rankSummaryOf(summaries[i]))) {
      const key = `${v.status}:${m.month}`;
      if (kept.get(key) === m.hash) {
        kept.delete(key);
        continue;
      }
      params.push(v.status, fromDay(m.month), fromDay(m.reach), m.body, m.hash);
      const at = params.length;
      values.push(`($1, $${at - 4}, $${at - 3}::date, $${at - 2}::date, $${at - 1}, $${at})`);
    }
  }
  // left in `kept`: months changed (inserted again below) or gone
  const gone = [...kept.keys()].map((key) => key.split(':'));
  if (gone.length)
    await db.query(
      `delete from rank_month r using unnest($2::text[], $3::int[]) as g(status, m)
       where r.project_id = $1 and r.status = g.status and r.month = date '1970-01-01' + g.m`,
      [projectId, gone.map(([status]) => status), gone.map(([, m]) => Number(m))],
    );
  if (values.length)
    await db.query(
      `insert into rank_month (project_id, status, month, reach, body, hash) values ${values.join(', ')}`,
      params,
    );
}

/**
 * Fills `rank_month` from the kept pace summaries (after migration 14, which replaced the ranking's
 * one-row form): each project's summaries are read, split and written again, nothing recomputed.
 */
export async function keepRanksOfKeptSummaries(db: Db, onProgress?: (done: number, total: number) => void) {
  const projects = await db.query<{ id: number }>(
    'select distinct project_id as id from pace_summary order by 1',
  );
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => {
      const summaries = await storedSummaries(tx, id);
      if (summaries) await keepRanks(tx, id, summaries);
    });
    onProgress?.(i + 1, projects.length);
  }
}

function sameStart(a: number[], b: number[], count: number): boolean {
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}
