import { appendWindow } from '../../analytics/append-window.js';
import { ProjectModel, type RowChanges } from '../../analytics/model.js';
import { PACE_VARIANTS } from '../../analytics/pace-summary.js';
import { DEFAULT_CARRY_DAYS, type FlatRecord, sameRecord } from '../../analytics/types.js';
import { fromDay, toDay } from '../../lib/days.js';
import type { Db } from '../driver.js';
import {
  inChunks,
  readSegments,
  recordArrays,
  recordColumnsOf,
  recordFromText,
  recordTypes,
} from '../records.js';

/** The observation log's columns as the model reads them (`Db.textRows`), from flat_observation `o`. */
const ROW_COLUMNS = `o.flat_id, o.snapshot_date - date '1970-01-01', o.present, ${recordColumnsOf('o')}`;

/** Puts rows read with ROW_COLUMNS (flat order, each flat's in day order) into the model's histories. */
function addRows(model: ProjectModel, rows: (string | null)[][]): void {
  for (const r of rows) {
    model
      .history(Number(r[0]))
      .rows.push({ day: Number(r[1]), rec: r[2] === 't' ? recordFromText(r, 3) : null });
  }
}

/** A project's model with its snapshots (days, hashes, counts, flags) and no flats yet. */
async function loadDays(db: Db, projectId: number, grace: number, carry: number): Promise<ProjectModel> {
  const [project] = await db.query<{ data_version: number }>(
    'select data_version from project where id = $1',
    [projectId],
  );
  const model = new ProjectModel(projectId, grace, project?.data_version ?? 0, carry);
  const snapshots = await db.query<{
    date: string;
    content_hash: string;
    flats_count: number;
    complete: boolean;
    partial: boolean;
  }>(
    'select date, content_hash, flats_count, complete, partial from snapshot where project_id = $1 order by date',
    [projectId],
  );
  for (const s of snapshots) {
    const day = toDay(s.date);
    model.dates.push(day);
    model.hashes.set(day, s.content_hash);
    model.sizes.set(day, s.flats_count);
    if (s.complete) model.completes.add(day);
    if (s.partial) model.partial.add(day);
  }
  return model;
}

/** Loads a project's observation log and stored derived state into a model. */
export async function loadModel(
  db: Db,
  projectId: number,
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
): Promise<ProjectModel> {
  const model = await loadDays(db, projectId, grace, carry);
  for (const f of await db.query<{ id: number; external_id: string }>(
    'select id, external_id from flat where project_id = $1',
    [projectId],
  )) {
    model.externalIds.set(f.external_id, f.id);
  }
  addRows(
    model,
    await db.textRows(
      `select ${ROW_COLUMNS} from flat_observation o where o.project_id = $1 order by o.flat_id, o.snapshot_date`,
      [projectId],
    ),
  );
  model.segments = await readSegments(db, projectId);
  return model;
}

/**
 * The model a snapshot needs when it is a plain append (analytics/append-window.ts) — or changes nothing:
 * its project's snapshots and flats with their kept first presences, each flat's latest row, the full rows
 * of the flats the append can touch (those with a row in its window, and those the list changes) and the
 * segments running in its window. One new day costs that day: a few hundred rows and segments of a
 * project with years of history, not all of them (DESIGN §11.1). Null for any other snapshot.
 */
export async function loadAppendModel(
  db: Db,
  projectId: number,
  grace: number,
  carry: number,
  list: {
    date: string;
    /** the list's content hash (ingest/snapshot.ts hashOf) */
    hash: string;
    /** its flats by external id */
    listed: Map<string, FlatRecord>;
    complete: boolean;
  },
): Promise<ProjectModel | null> {
  const model = await loadDays(db, projectId, grace, carry);
  model.known = new Map();
  const day = toDay(list.date);
  // an unchanged list needs its snapshots' hashes only
  if (model.hashes.get(day) === list.hash) return model;
  const listed = list.listed;
  const window = appendWindow(model, day, listed.size, list.complete);
  if (!window) return null;
  const [{ kept }] = await db.query<{ kept: number }>(
    'select count(distinct (status, rooms))::int as kept from pace_summary where project_id = $1',
    [projectId],
  );
  if (kept < PACE_VARIANTS.length) return null;
  for (const r of await db.textRows(
    `select id, external_id, first_seen - date '1970-01-01' from flat where project_id = $1`,
    [projectId],
  )) {
    model.externalIds.set(r[1]!, Number(r[0]));
    if (r[2] !== null) model.known.set(Number(r[0]), Number(r[2]));
  }
  // each flat's latest row: one backward probe of the log's key a flat
  addRows(
    model,
    await db.textRows(
      `select ${ROW_COLUMNS} from flat f cross join lateral (
         select * from flat_observation o where o.project_id = f.project_id and o.flat_id = f.id
         order by o.snapshot_date desc limit 1) o
       where f.project_id = $1 order by f.id`,
      [projectId],
    ),
  );
  const touched: number[] = [];
  const byId = new Map<number, FlatRecord>();
  for (const [externalId, rec] of listed) {
    const id = model.externalIds.get(externalId);
    if (id !== undefined) byId.set(id, rec);
  }
  for (const h of model.flats.values()) {
    const last = h.rows[h.rows.length - 1];
    if (last.day >= window.recentFrom || !sameRecord(byId.get(h.flatId) ?? null, last.rec))
      touched.push(h.flatId);
  }
  if (touched.length) {
    for (const id of touched) model.flats.get(id)!.rows = [];
    addRows(
      model,
      await db.textRows(
        `select ${ROW_COLUMNS} from flat_observation o where o.project_id = $1 and o.flat_id = any($2::int[])
         order by o.flat_id, o.snapshot_date`,
        [projectId, touched],
      ),
    );
  }
  model.segments = await readSegments(
    db,
    projectId,
    's.end_day is null or s.end_day >= $2::date or s.flat_id = any($3::int[])',
    [fromDay(window.segmentsFrom), touched],
  );
  return model;
}

export async function saveRowChanges(db: Db, projectId: number, changes: RowChanges): Promise<void> {
  if (changes.deletes.length) {
    await db.query(
      `delete from flat_observation o using unnest($2::int[], $3::date[]) as d(flat_id, day)
       where o.project_id = $1 and o.flat_id = d.flat_id and o.snapshot_date = d.day`,
      [projectId, changes.deletes.map((d) => d.flatId), changes.deletes.map((d) => fromDay(d.day))],
    );
  }
  await inChunks(changes.inserts, async (chunk) => {
    const recs = chunk.map((i) => i.row.rec);
    await db.insertColumns(
      'flat_observation',
      [
        ['project_id', 'int'],
        ['flat_id', 'int'],
        ['snapshot_date', 'date'],
        ['present', 'bool'],
        ...recordTypes(),
      ],
      [
        chunk.map(() => projectId),
        chunk.map((i) => i.flatId),
        chunk.map((i) => fromDay(i.row.day)),
        recs.map((r) => r !== null),
        ...recordArrays(recs),
      ],
    );
  });
}
