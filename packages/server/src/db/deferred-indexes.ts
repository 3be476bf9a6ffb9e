import type { Db } from './driver.js';

/**
 * The secondary indexes of the timeline's two largest tables, which a load into an empty database builds
 * once at its end instead of keeping up row by row: the demo's 23 projects wrote flat_event in 5.7 s with
 * its four indexes, 2.9 s with its key alone and the other three built after (docs/performance.md,
 * session 28). Their definitions are those of the migrations (a test holds them equal); `migrate` makes
 * sure they exist at every start, so a load stopped half way leaves none missing.
 */
export const DEFERRED_INDEXES: readonly { name: string; definition: string }[] = [
  { name: 'flat_event_day', definition: 'on flat_event (day)' },
  {
    name: 'flat_event_change',
    definition: 'on flat_event (change_percent) where change_percent is not null',
  },
  { name: 'flat_event_new_price', definition: 'on flat_event (new_price) where new_price is not null' },
  { name: 'flat_segment_end', definition: 'on flat_segment (project_id, end_day)' },
  { name: 'flat_segment_building', definition: 'on flat_segment (project_id, building, flat_id)' },
];

/** Creates whichever of the deferred indexes is missing (a lookup in the catalogue when none is). */
export async function ensureDeferredIndexes(db: Db): Promise<void> {
  for (const index of DEFERRED_INDEXES)
    await db.exec(`create index if not exists ${index.name} ${index.definition}`);
}

/**
 * Runs a bulk load with the deferred indexes dropped, and builds them again after it, whether it
 * succeeded or not. Only for a load into tables that hold nothing yet: a reader of a filled database would
 * meanwhile scan what the indexes find.
 */
export async function withIndexesDeferred<T>(db: Db, load: () => Promise<T>): Promise<T> {
  for (const index of DEFERRED_INDEXES) await db.exec(`drop index if exists ${index.name}`);
  try {
    return await load();
  } finally {
    await ensureDeferredIndexes(db);
  }
}
