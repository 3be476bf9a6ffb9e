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
import { nextTail, tailOf, tailStart } from '../analytics/pace-tail.js';
import type { FlatRecord, Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { bytes, monthOf } from '../db/kept.js';
import { rankMonths } from '../db/kept-rank.js';
import { decodeSummary, encodeSummary } from '../db/pace-form.js';
import {
  arrivalsAndRemovals,
  deletePaceParts,
  insertPaceParts,
  paceSummaryParts,
  projectsWithPace,
  type RankMonthRow,
  rankMonthHashes,
  replaceRankMonths,
} from '../db/queries/kept-pace.js';
import { notePaceChange, paceTailsOf, savePaceTails } from '../db/queries/pace-tails.js';
import { fromDay } from '../lib/days.js';
import { lowerBound } from '../lib/sorted.js';

/** The model's segments, flats in id order: the order the summaries' sums are made in, on every path. */
function segmentsInFlatOrder(model: ProjectModel): Segment[][] {
  return [...model.segments.entries()].sort((a, b) => a[0] - b[0]).map(([, segs]) => segs);
}

/** The kept NEW and REMOVED events from `fromDay` on, as the sweep reads them (rooms and status). */
async function eventsFrom(db: Db, projectId: number, fromDay_: number) {
  const events = new Map<number, FlatEvent[]>();
  for (const e of await arrivalsAndRemovals(db, projectId, fromDay(fromDay_))) {
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
  const rows = await paceSummaryParts(db, projectId, fromDay(fromPart));
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
  await deletePaceParts(db, model.projectId, fromDay(kP > 0 ? partOf(dates[kP]) : 0));
  await writeParts(db, model.projectId, summaries, kP);
  await keepRanks(db, model.projectId, summaries, kP);
  await keepTails(db, model.projectId, dates, summaries, kP, k);
  // the points a change from snapshot k may move begin at the snapshot before it (its carried end moves);
  // the removals whose days back move are later (use-cases/market-spans.ts brings the spans up to date)
  await notePaceChange(db, model.projectId, fromDay(k > 0 ? dates[k - 1] : 0));
}

/**
 * The summaries' tails (analytics/pace-tail.ts) after a change from snapshot k, the summaries real from kP
 * on: from the tails as kept while the change is after their first snapshot, else from the whole summaries
 * as now kept (a change before a tail, a project's first import after migration 40).
 */
async function keepTails(
  db: Db,
  projectId: number,
  dates: number[],
  summaries: PaceSummary[],
  kP: number,
  k: number,
): Promise<void> {
  const kept = new Map<string, PaceSummary>();
  if (kP > 0)
    for (const r of await paceTailsOf(db, projectId))
      kept.set(`${r.status}:${r.rooms}`, decodeSummary(bytes(r.body)));
  let whole: PaceSummary[] | null = null;
  const rows: { status: string; rooms: string; whole: boolean; body: Buffer }[] = [];
  for (const [i, v] of PACE_VARIANTS.entries()) {
    const old = kept.get(`${v.status}:${v.rooms}`);
    const t0 = old?.dates.length ? lowerBound(dates, old.dates[0]) : -1;
    let tail = nextTail(summaries[i], kP, k, old && t0 >= 0 ? { tail: old, t0 } : null);
    if (!tail) {
      whole ??= await storedSummaries(db, projectId);
      if (!whole) throw new Error(`the kept pace summaries of project ${projectId} are missing a variant`);
      tail = tailOf(whole[i], tailStart(whole[i]));
    }
    rows.push({
      status: v.status,
      rooms: v.rooms,
      whole: tail.dates.length === 0 || tail.dates[0] === dates[0],
      body: encodeSummary(tail),
    });
  }
  await savePaceTails(db, projectId, rows);
}

/** Makes every project's tails from its kept summaries (after migration 40): nothing recomputed. */
export async function keepTailsOfKeptSummaries(db: Db, onProgress?: (done: number, total: number) => void) {
  await eachKeptProject(db, onProgress, async (tx, id, summaries) =>
    keepTails(tx, id, summaries[0].dates, summaries, 0, 0),
  );
}

/** Writes the summaries' parts from snapshot kP on (`summaries` in PACE_VARIANTS order). */
async function writeParts(db: Db, projectId: number, summaries: PaceSummary[], kP: number): Promise<void> {
  const parts = [...PACE_VARIANTS.entries()].flatMap(([i, v]) =>
    splitSummary(summaries[i], kP).map(({ part, summary }) => ({
      status: v.status,
      rooms: v.rooms,
      part: fromDay(part),
      body: encodeSummary(summary),
    })),
  );
  await insertPaceParts(db, projectId, parts);
}

/**
 * The ranking's form of the summaries of every room (the market ranks by those), a month to a row
 * (db/kept-rank.ts): `summaries` in PACE_VARIANTS order.
 */
async function keepRanks(db: Db, projectId: number, summaries: PaceSummary[], kP = 0): Promise<void> {
  // the months as kept from kP's on: those whose bytes are the same stay, the rest are replaced or dropped
  const since = kP > 0 ? monthOf(summaries[0].dates[kP]) : 0;
  const kept = await rankMonthHashes(db, projectId, fromDay(since));
  const fresh: RankMonthRow[] = [];
  for (const [i, v] of PACE_VARIANTS.entries()) {
    if (v.rooms !== 'all') continue;
    for (const m of rankMonths(rankSummaryOf(summaries[i]), kP)) {
      const key = `${v.status}:${m.month}`;
      if (kept.get(key) === m.hash) {
        kept.delete(key);
        continue;
      }
      fresh.push({
        status: v.status,
        month: fromDay(m.month),
        reach: fromDay(m.reach),
        body: m.body,
        hash: m.hash,
      });
    }
  }
  // left in `kept`: months changed (inserted again below) or gone
  await replaceRankMonths(
    db,
    projectId,
    [...kept.keys()].map((key) => key.split(':')).map(([status, m]) => ({ status, m: Number(m) })),
    fresh,
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
 * Writes the kept pace summaries again: split into their years (after migration 24) and in the columnar
 * form (after migration 28, db/pace-form.ts); each project's read, split and written, nothing recomputed.
 */
export async function splitKeptPace(db: Db, onProgress?: (done: number, total: number) => void) {
  await eachKeptProject(db, onProgress, async (tx, id, summaries) => {
    await deletePaceParts(tx, id, null);
    await writeParts(tx, id, summaries, 0);
  });
}

/** Runs `fn` on every project's kept summaries (all parts joined), a transaction each. */
async function eachKeptProject(
  db: Db,
  onProgress: ((done: number, total: number) => void) | undefined,
  fn: (tx: Db, projectId: number, summaries: PaceSummary[]) => Promise<void>,
) {
  const projects = await projectsWithPace(db);
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
