import type { ImportResult } from '@cena-metra/contract';
import { countEvents, emptyEventCounts } from '../analytics/events.js';
import type { ProjectModel } from '../analytics/model.js';
import { DEFAULT_CARRY_DAYS, type FlatRecord, type ObservationRow } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { loadAppendModel, loadModel, saveRowChanges } from '../db/queries/model.js';
import {
  ensureDeveloper,
  ensureProject,
  insertFlats,
  lockProjectVersion,
  markProjectImported,
  saveSnapshots,
} from '../db/queries/projects.js';
import { savePartialFlags } from '../db/queries/timeline.js';
import { rebuildProjectDerived, saveDerived } from '../derive/index.js';
import { fromDay, toDay } from '../lib/days.js';
import { mergeSourcePlace, placeOfList, type SourcePlace, savePlaceFromLists } from './place.js';
import { hashOf, type Snapshot } from './snapshot.js';

/** Disk a snapshot may take per flat at most (observations, timeline, cube, events, their WAL). */
const BYTES_PER_FLAT = 2048;

/**
 * Project models kept between snapshots. A model holds the project's whole timeline (megabytes for a
 * busy project); they pay off when one project's snapshots come one after another (backfills, a day's
 * batch), not across a market: kept for every project, 200 projects held a gigabyte (bench:scale).
 */
export const MODELS_KEPT = 8;

/**
 * Observation rows and segments the kept models may hold together, each about 100 bytes in the heap. A
 * model over it (a 2,000-flat project with 3 years of daily lists holds ~200,000) is let go when its
 * request is done: kept, it made every full collection after an import mark it, and on the embedded
 * database, whose heap grows by 10 % at most (lib/heap.ts), the first reads after an import took 30–60 ms
 * longer for it (docs/performance.md, session 19). Loading it again costs the next day's import ~0.7 s.
 */
export const MODEL_OBJECTS_KEPT = 100_000;

/**
 * Applies snapshots one transaction each. Keeps each project's model in memory between snapshots and
 * reloads it whenever the stored data version differs (another process imported meanwhile).
 */
export class Importer {
  private readonly models = new Map<number, ProjectModel>();
  /** models loaded so far: of an append's window, of a whole history */
  readonly loads = { window: 0, whole: 0 };

  constructor(
    private readonly db: Db,
    private readonly grace: number,
    /** the carry-forward limit C (§10.1) */
    private readonly carry = DEFAULT_CARRY_DAYS,
    /** observation rows and segments the kept models may hold together */
    private readonly objectsKept = MODEL_OBJECTS_KEPT,
  ) {}

  /**
   * Applies one snapshot in its own transaction (or in the batch transaction `batch` when given), keeping
   * derived data current incrementally.
   */
  async apply(snapshot: Snapshot, batch?: Batch): Promise<ImportResult> {
    this.db.ensureSpace(snapshot.flats.length * BYTES_PER_FLAT);
    if (!batch) return this.applyOne(snapshot).finally(() => this.trim());
    return this.applyOne(snapshot, batch);
  }

  private async applyOne(snapshot: Snapshot, batch?: Batch): Promise<ImportResult> {
    return this.withProject(snapshot.developer, snapshot.project, batch, snapshot, async (tx, model) => {
      const prepared = await this.prepare(tx, model, snapshot);
      if (snapshot.place)
        await savePlaceFromLists(tx, model.projectId, placeOfList(snapshot.place, snapshot.date));
      if (!prepared.state) return prepared.result;
      const day = toDay(snapshot.date);
      const rowChanges = model.applySnapshot(day, prepared.state, snapshot.complete);
      const derived = model.recompute(day);
      await saveRowChanges(tx, model.projectId, rowChanges);
      await saveDerived(tx, model, derived);
      await this.finish(tx, model, [{ snapshot, hash: prepared.hash }]);
      Object.assign(prepared.result.events, countEvents(derived.events.get(day) ?? []));
      prepared.result.partial = model.partial.has(day);
      return prepared.result;
    });
  }

  /**
   * Applies many snapshots of one project in one transaction (all or none) and then recomputes the
   * project's derived data once: the same model and functions as `apply`, for bulk loads and the demo.
   */
  async applyProjectBatch(
    developer: string,
    project: string,
    snapshots: Iterable<Snapshot> | AsyncIterable<Snapshot>,
  ): Promise<ImportResult[]> {
    try {
      return await this.projectBatch(developer, project, snapshots);
    } finally {
      this.trim();
    }
  }

  private async projectBatch(
    developer: string,
    project: string,
    snapshots: Iterable<Snapshot> | AsyncIterable<Snapshot>,
  ): Promise<ImportResult[]> {
    return this.withProject(developer, project, undefined, undefined, async (tx, model) => {
      const results: ImportResult[] = [];
      const applied: { snapshot: Snapshot; hash: string }[] = [];
      // keyed by flat and day in one number (days since 1970 stay below 100,000 until the year 2243)
      const net = new Map<number, { flatId: number; row: ObservationRow | null; day: number }>();
      let place: SourcePlace = {};
      for await (const snapshot of snapshots) {
        if (
          snapshot.developer.toLowerCase() !== developer.toLowerCase() ||
          snapshot.project.toLowerCase() !== project.toLowerCase()
        )
          throw new Error('a project batch holds snapshots of one project only');
        const prepared = await this.prepare(tx, model, snapshot);
        // the lists' places taken in once for the batch
        if (snapshot.place)
          place = mergeSourcePlace(place, placeOfList(snapshot.place, snapshot.date)) ?? place;
        results.push(prepared.result);
        if (!prepared.state) continue;
        const changes = model.applySnapshot(toDay(snapshot.date), prepared.state, snapshot.complete);
        for (const d of changes.deletes)
          net.set(d.flatId * 100_000 + d.day, { flatId: d.flatId, row: null, day: d.day });
        for (const i of changes.inserts)
          net.set(i.flatId * 100_000 + i.row.day, { flatId: i.flatId, row: i.row, day: i.row.day });
        model.hashes.set(toDay(snapshot.date), prepared.hash);
        applied.push({ snapshot, hash: prepared.hash });
      }
      if (Object.keys(place).length) await savePlaceFromLists(tx, model.projectId, place);
      if (applied.length === 0) return results;
      const entries = [...net.values()];
      await saveRowChanges(tx, model.projectId, {
        deletes: entries.map((e) => ({ flatId: e.flatId, day: e.day })),
        inserts: entries.filter((e) => e.row).map((e) => ({ flatId: e.flatId, row: e.row! })),
      });
      await rebuildProjectDerived(tx, model);
      await this.finish(tx, model, applied);
      for (const r of results) r.partial = model.partial.has(toDay(r.date));
      return results;
    });
  }

  /**
   * Runs `fn` with every snapshot it applies (through `apply(snapshot, batch)`) in one transaction: all
   * of them are stored or none (DESIGN §3.3, a batch is all-or-nothing). Two batches that lock the same
   * projects in another order deadlock on PostgreSQL; the one the server aborts is run again.
   */
  async inOneTransaction<T>(fn: (batch: Batch) => Promise<T>): Promise<T> {
    try {
      return await this.retried(fn);
    } finally {
      this.trim();
    }
  }

  private async retried<T>(fn: (batch: Batch) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const touched = new Set<number>();
      try {
        return await this.db.transaction((tx) => fn({ tx, touched }));
      } catch (error) {
        // rolled back: the models of every project the batch touched may hold what was not stored
        for (const id of touched) this.models.delete(id);
        const code = (error as { code?: unknown }).code;
        if ((code !== '40P01' && code !== '40001') || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Runs `fn` with the project's model in a transaction that holds the project's row lock. The model is
   * the kept one when it is current; else, for one `snapshot` that is a plain append, a model of the
   * append's window (not kept: the next list reads its own); else the whole history, loaded and kept.
   */
  private async withProject<T>(
    developer: string,
    project: string,
    batch: Batch | undefined,
    snapshot: Snapshot | undefined,
    fn: (tx: Db, model: ProjectModel) => Promise<T>,
  ): Promise<T> {
    let projectId = 0;
    try {
      // inside a batch the transaction below joins the batch's transaction
      return await (batch?.tx ?? this.db).transaction(async (tx) => {
        const developerId = await ensureDeveloper(tx, developer);
        projectId = await ensureProject(tx, developerId, project);
        batch?.touched.add(projectId);
        // the row lock serialises imports of one project across processes
        const version = await lockProjectVersion(tx, projectId);
        let model = this.models.get(projectId);
        this.models.delete(projectId);
        if (!model || model.dataVersion !== version) {
          const window = snapshot
            ? await loadAppendModel(tx, projectId, this.grace, this.carry, {
                date: snapshot.date,
                hash: hashOf(snapshot),
                listed: new Map(snapshot.flats.map((f) => [f.externalId, f.rec])),
                complete: snapshot.complete === true,
              })
            : null;
          if (window) {
            model = window;
            this.loads.window++;
          } else {
            model = await loadModel(tx, projectId, this.grace, this.carry);
            this.loads.whole++;
          }
        }
        if (!model.known) {
          // most recently used last; the oldest out past MODELS_KEPT
          this.models.set(projectId, model);
          while (this.models.size > MODELS_KEPT) this.models.delete(this.models.keys().next().value!);
        }
        return await fn(tx, model);
      });
    } catch (error) {
      // the transaction rolled back: the cached model may hold what was not stored
      this.models.delete(projectId);
      throw error;
    }
  }

  /** Hash check and flat ids; `state` is null when the snapshot is unchanged. */
  private async prepare(tx: Db, model: ProjectModel, snapshot: Snapshot) {
    const day = toDay(snapshot.date);
    const hash = hashOf(snapshot);
    const base = {
      developer: snapshot.developer,
      project: snapshot.project,
      date: snapshot.date,
      flats: snapshot.flats.length,
      ...(snapshot.warnings && { warnings: snapshot.warnings }),
    };
    const events = emptyEventCounts();
    if (model.hashes.get(day) === hash) {
      const partial = model.partial.has(day);
      return { hash, state: null, result: { ...base, status: 'unchanged', events, partial } as ImportResult };
    }
    const status = model.hashes.has(day) ? 'replaced' : 'imported';

    const fresh = snapshot.flats.filter((f) => !model.externalIds.has(f.externalId)).map((f) => f.externalId);
    if (fresh.length) {
      for (const r of await insertFlats(tx, model.projectId, fresh, snapshot.date))
        model.externalIds.set(r.external_id, r.id);
    }
    const state = new Map<number, FlatRecord>();
    for (const f of snapshot.flats) state.set(model.externalIds.get(f.externalId)!, f.rec);

    return { hash, state, result: { ...base, status, events, partial: false } as ImportResult };
  }

  /** Records the snapshots and bumps the project's data version. */
  private async finish(tx: Db, model: ProjectModel, applied: { snapshot: Snapshot; hash: string }[]) {
    await saveSnapshots(
      tx,
      model.projectId,
      applied.map((a) => ({
        date: a.snapshot.date,
        flats: a.snapshot.flats.length,
        hash: a.hash,
        source: a.snapshot.source,
        complete: a.snapshot.complete === true,
      })),
    );
    await savePartialFlags(tx, model);
    await markProjectImported(
      tx,
      model.projectId,
      fromDay(model.dates[0]),
      fromDay(model.dates[model.dates.length - 1]),
    );
    for (const a of applied) model.hashes.set(toDay(a.snapshot.date), a.hash);
    model.dataVersion++;
  }

  forget(): void {
    this.models.clear();
  }

  /**
   * Lets a model over `objectsKept` go, then the least recently used ones while the kept ones hold more
   * together.
   */
  private trim(): void {
    let objects = 0;
    for (const [id, model] of this.models) {
      const own = model.objects();
      if (own > this.objectsKept) this.models.delete(id);
      else objects += own;
    }
    for (const [id, model] of this.models) {
      if (objects <= this.objectsKept) break;
      objects -= model.objects();
      this.models.delete(id);
    }
  }

  /** Projects whose models are kept now, least recently used first. */
  keptModels(): number[] {
    return [...this.models.keys()];
  }
}

/** The transaction of a batch and the projects it has touched so far. */
export interface Batch {
  tx: Db;
  touched: Set<number>;
}
