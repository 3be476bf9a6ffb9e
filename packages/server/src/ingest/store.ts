import { ProjectModel, type RowChanges } from '../analytics/model.js';
import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import {
  inChunks,
  RECORD_COLUMNS,
  readSegments,
  recordArrays,
  recordFromText,
  recordTypes,
} from '../db/records.js';
import { fromDay, toDay } from '../lib/days.js';

/** Loads a project's observation log and stored derived state into a model. */
export async function loadModel(
  db: Db,
  projectId: number,
  grace: number,
  carry = DEFAULT_CARRY_DAYS,
): Promise<ProjectModel> {
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
  for (const f of await db.query<{ id: number; external_id: string }>(
    'select id, external_id from flat where project_id = $1',
    [projectId],
  )) {
    model.externalIds.set(f.external_id, f.id);
  }
  const rows = await db.textRows(
    `select flat_id, snapshot_date - date '1970-01-01', present, ${RECORD_COLUMNS} from flat_observation
     where project_id = $1 order by flat_id, snapshot_date`,
    [projectId],
  );
  for (const r of rows) {
    model
      .history(Number(r[0]))
      .rows.push({ day: Number(r[1]), rec: r[2] === 't' ? recordFromText(r, 3) : null });
  }
  model.segments = await readSegments(db, projectId);
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
