import type { FlatEvent } from '../analytics/events.js';
import type { ProjectModel } from '../analytics/model.js';
import { rankSummaryOf } from '../analytics/pace-last.js';
import { joinSummaries, partOf, splitSummary } from '../analytics/pace-parts.js';
import {
  PACE_VARIANTS,
  type PaceSummary,
  paceSummaries,
  variantFilter,
  WINDOW,
} from '../analytics/pace-summary.js';
import type { FlatRecord, Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { base64, bytes, decodeSummary, encodeSummary, monthOf } from '../db/kept.js';
import { rankMonths } from '../db/kept-rank.js';
import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';

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

/**
 * The kept summaries in PACE_VARIANTS order, their parts from the year `fromPart` on joined, with
 * placeholders for the snapshots `before` them (analytics/pace-parts.ts); null when a variant is missing.
 */
async function storedSummaries(
  db: Db,
  projectId: number,
  fromPart = 0,
  before: number[] = [],
): Promise<PaceSummary[] | null> {
  const rows = await db.query<{ status: string; rooms: string; body: string }>(
    `select status, rooms, ${base64('body')} from pace_summary
     where project_id = $1 and part >= $2::date order by status, rooms, part`,
    [projectId, fromDay(fromPart)],
  );
  const byKey = new Map<string, PaceSummary[]>();
  for (const r of rows) {
    const key = `${r.status}:${r.rooms}`;
    byKey.set(key, [...(byKey.get(key) ?? []), decodeSummary(bytes(r.body))]);
  }
  const out: PaceSummary[] = [];
  for (const v of PACE_VARIANTS) {
    const parts = byKey.get(`${v.status}:${v.rooms}`);
    if (!parts) return null;
    out.push(joinSummaries(parts, before));
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
): Promise<void> {
  const dates = model.dates;
  const n = dates.length;
  let previous: PaceSummary[] | null = null;
  // the parts a change from snapshot fromK rewrites: from the year of the snapshot before it (its carried
  // end moves), and back over the removals whose 30 days reach the change (their days back move)
  let kP = 0;
  if (fromK > 0) {
    const from = partOf(Math.min(dates[fromK - 1], dates[fromK] - WINDOW));
    kP = lowerBound(dates, from);
    previous = await storedSummaries(db, model.projectId, from, dates.slice(0, kP));
  }
  // the previous summaries must cover the snapshots before fromK as they are now
  const k = previous?.every((s) => s.dates.length >= fromK && sameStart(s.dates, dates, fromK)) ? fromK : 0;
  // a model of an append's window holds the segments from its window on: the sweep must start there
  if (model.known && k !== fromK)
    throw new Error(`the kept pace summaries of project ${model.projectId} do not match its snapshots`);
  if (k === 0) kP = 0;
  const events = await eventsFrom(db, model.projectId, n ? dates[k] : 0);
  const summaries = paceSummaries(
    segmentsInFlatOrder(model),
    events,
    firstSeen,
    dates,
    model.carry,
    PACE_VARIANTS.map((v) => variantFilter(v.status, v.rooms)),
    k > 0 ? { k, previous: previous! } : undefined,
  );
  // the entries before kP are placeholders: only the parts from there on are written
  await db.query('delete from pace_summary where project_id = $1 and part >= $2::date', [
    model.projectId,
    fromDay(kP > 0 ? partOf(dates[kP]) : 0),
  ]);
  await writeParts(db, model.projectId, summaries, kP);
  await keepRanks(db, model.projectId, summaries, kP);
}

/** Writes the summaries' parts from snapshot kP on (`summaries` in PACE_VARIANTS order). */
async function writeParts(db: Db, projectId: number, summaries: PaceSummary[], kP: number): Promise<void> {
  const params: unknown[] = [projectId];
  const values: string[] = [];
  for (const [i, v] of PACE_VARIANTS.entries())
    for (const { part, summary } of splitSummary(summaries[i], kP)) {
      params.push(v.status, v.rooms, fromDay(part), encodeSummary(summary));
      const at = params.length;
      values.push(`($1, $${at - 3}, $${at - 2}, $${at - 1}::date, $${at})`);
    }
  if (values.length)
    await db.query(
      `insert into pace_summary (project_id, status, rooms, part, body) values ${values.join(', ')}`,
      params,
    );
}

/**
 * The ranking's form of the summaries of every room (the market ranks by those), a month to a row
 * (db/kept-rank.ts): `summaries` in PACE_VARIANTS order.
 */
async function keepRanks(db: Db, projectId: number, summaries: PaceSummary[], kP = 0): Promise<void> {
  // the months as kept from kP's on: those whose bytes are the same stay, the rest are replaced or dropped
  const since = kP > 0 ? monthOf(summaries[0].dates[kP]) : 0;
  const kept = new Map(
    (
      await db.query<{ status: string; m: number; hash: string }>(
        `select status, month - date '1970-01-01' as m, hash from rank_month
         where project_id = $1 and month >= $2::date`,
        [projectId, fromDay(since)],
      )
    ).map((r) => [`${r.status}:${r.m}`, r.hash]),
  );
  const params: unknown[] = [projectId];
  const values: string[] = [];
  for (const [i, v] of PACE_VARIANTS.entries()) {
    if (v.rooms !== 'all') continue;
    for (const m of rankMonths(rankSummaryOf(summaries[i]), kP)) {
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
  await eachKeptProject(db, onProgress, async (tx, id, summaries) => keepRanks(tx, id, summaries));
}

/**
 * Splits the pace summaries kept whole into their years (after migration 24): each project's read, split
 * and written again, nothing recomputed.
 */
export async function splitKeptPace(db: Db, onProgress?: (done: number, total: number) => void) {
  await eachKeptProject(db, onProgress, async (tx, id, summaries) => {
    await tx.query('delete from pace_summary where project_id = $1', [id]);
    await writeParts(tx, id, summaries, 0);
  });
}

/** Runs `fn` on every project's kept summaries (all parts joined), a transaction each. */
async function eachKeptProject(
  db: Db,
  onProgress: ((done: number, total: number) => void) | undefined,
  fn: (tx: Db, projectId: number, summaries: PaceSummary[]) => Promise<void>,
) {
  const projects = await db.query<{ id: number }>(
    'select distinct project_id as id from pace_summary order by 1',
  );
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => {
      const summaries = await storedSummaries(tx, id);
      if (summaries) await fn(tx, id, summaries);
    });
    onProgress?.(i + 1, projects.length);
  }
}

function sameStart(a: number[], b: number[], count: number): boolean {
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}
