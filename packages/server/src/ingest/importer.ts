import type { ImportResult } from '@cena-metra/contract';
import { countEvents } from '../analytics/events.js';
import type { ProjectModel } from '../analytics/model.js';
import type { FlatRecord } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { fromDay, toDay } from '../lib/days.js';
import type { ReadItem } from './readers.js';
import { contentHash, type Snapshot, SnapshotValidationError } from './snapshot.js';
import { loadModel, saveDerived, saveRowChanges } from './store.js';

/** Finds a developer by name (trimmed, case-insensitive) or creates it. */
export async function ensureDeveloper(db: Db, name: string): Promise<number> {
  const found = await db.query<{ id: number }>('select id from developer where lower(name) = lower($1)', [name]);
  if (found.length) return found[0].id;
  const [row] = await db.query<{ id: number }>(
    `insert into developer (name) values ($1)
     on conflict (lower(name)) do update set name = developer.name returning id`,
    [name],
  );
  return row.id;
}

export async function ensureProject(db: Db, developerId: number, name: string): Promise<number> {
  const found = await db.query<{ id: number }>(
    'select id from project where developer_id = $1 and lower(name) = lower($2)',
    [developerId, name],
  );
  if (found.length) return found[0].id;
  const [row] = await db.query<{ id: number }>(
    `insert into project (developer_id, name) values ($1, $2)
     on conflict (developer_id, lower(name)) do update set name = project.name returning id`,
    [developerId, name],
  );
  return row.id;
}

/**
 * Applies snapshots one transaction each. Keeps each project's model in memory between snapshots and
 * reloads it whenever the stored data version differs (another process imported meanwhile).
 */
export class Importer {
  private readonly models = new Map<number, ProjectModel>();

  constructor(
    private readonly db: Db,
    private readonly grace: number,
  ) {}

  async apply(snapshot: Snapshot): Promise<ImportResult> {
    let projectId = 0;
    try {
      return await this.db.transaction(async (tx) => {
        const developerId = await ensureDeveloper(tx, snapshot.developer);
        projectId = await ensureProject(tx, developerId, snapshot.project);
        // the row lock serialises imports of one project across processes
        const [{ data_version: version }] = await tx.query<{ data_version: number }>(
          'select data_version from project where id = $1 for update',
          [projectId],
        );
        let model = this.models.get(projectId);
        if (!model || model.dataVersion !== version) {
          model = await loadModel(tx, projectId, this.grace);
          this.models.set(projectId, model);
        }
        return await this.applyToModel(tx, model, snapshot);
      });
    } catch (error) {
      // the transaction rolled back: the cached model may hold what was not stored
      this.models.delete(projectId);
      throw error;
    }
  }

  private async applyToModel(tx: Db, model: ProjectModel, snapshot: Snapshot): Promise<ImportResult> {
    const day = toDay(snapshot.date);
    const hash = contentHash(snapshot);
    const base = { developer: snapshot.developer, project: snapshot.project, date: snapshot.date, flats: snapshot.flats.length };
    const events = { NEW: 0, REMOVED: 0, PRICE_UP: 0, PRICE_DOWN: 0 };
    if (model.hashes.get(day) === hash) return { ...base, status: 'unchanged', events };
    const status = model.hashes.has(day) ? 'replaced' : 'imported';

    const fresh = snapshot.flats.filter((f) => !model.externalIds.has(f.externalId)).map((f) => f.externalId);
    if (fresh.length) {
      const rows = await tx.query<{ id: number; external_id: string }>(
        `insert into flat (project_id, external_id) select $1, * from unnest($2::text[]) returning id, external_id`,
        [model.projectId, fresh],
      );
      for (const r of rows) model.externalIds.set(r.external_id, r.id);
    }
    const state = new Map<number, FlatRecord>();
    for (const f of snapshot.flats) state.set(model.externalIds.get(f.externalId)!, f.rec);

    const rowChanges = model.applySnapshot(day, state);
    const derived = model.recompute(day);
    await saveRowChanges(tx, model.projectId, rowChanges);
    await saveDerived(tx, model, derived);
    await tx.query(
      `insert into snapshot (project_id, date, flats_count, content_hash, source) values ($1, $2, $3, $4, $5)
       on conflict (project_id, date) do update set flats_count = excluded.flats_count,
         content_hash = excluded.content_hash, source = excluded.source, imported_at = now()`,
      [model.projectId, snapshot.date, snapshot.flats.length, hash, snapshot.source],
    );
    await tx.query(
      `update project set data_version = data_version + 1, first_snapshot_date = $2, last_snapshot_date = $3
       where id = $1`,
      [model.projectId, fromDay(model.dates[0]), fromDay(model.dates[model.dates.length - 1])],
    );
    model.hashes.set(day, hash);
    model.dataVersion++;
    Object.assign(events, countEvents(derived.events.get(day) ?? []));
    return { ...base, status, events };
  }

  forget(): void {
    this.models.clear();
  }
}

export interface BatchProgress {
  phase: 'validate' | 'apply';
  done: number;
  total: number;
  result?: ImportResult;
}

/**
 * Imports a batch all-or-nothing (DESIGN §3.3): a first pass validates every snapshot of every source; any
 * error rejects the whole batch before anything is written. The second pass reads again and applies each
 * snapshot in its own transaction, so memory stays bounded by one snapshot.
 */
export async function importBatch(
  importer: Importer,
  sources: (() => AsyncIterable<ReadItem>)[],
  onProgress?: (p: BatchProgress) => void,
): Promise<ImportResult[]> {
  const errors: string[] = [];
  let total = 0;
  for (const source of sources) {
    for await (const item of source()) {
      if ('errors' in item) errors.push(...item.errors);
      else total++;
      onProgress?.({ phase: 'validate', done: total, total: 0 });
    }
  }
  if (errors.length) throw new SnapshotValidationError(errors);
  const results: ImportResult[] = [];
  for (const source of sources) {
    for await (const item of source()) {
      if ('errors' in item) throw new SnapshotValidationError(item.errors);
      const result = await importer.apply(item.snapshot);
      results.push(result);
      onProgress?.({ phase: 'apply', done: results.length, total, result });
    }
  }
  return results;
}

/** Imports snapshots already in memory (API bodies, demo data): validated by the caller, applied in order. */
export async function importSnapshots(importer: Importer, snapshots: Snapshot[]): Promise<ImportResult[]> {
  const results: ImportResult[] = [];
  for (const s of snapshots) results.push(await importer.apply(s));
  return results;
}
