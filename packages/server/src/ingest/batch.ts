import type { ImportResult } from '@cena-metra/contract';
import type { Importer } from './importer.js';
import type { ReadItem } from './readers/index.js';
import { type Snapshot, SnapshotValidationError } from './snapshot.js';

export interface BatchProgress {
  phase: 'validate' | 'apply';
  done: number;
  total: number;
  result?: ImportResult;
}

/**
 * Imports a batch all-or-nothing (DESIGN §3.3): a first pass validates every snapshot of every source; any
 * error rejects the whole batch before anything is written. The second pass applies the snapshots in one
 * transaction (a failure of any rolls back all): from memory when the batch holds at most KEEP_FLATS flats,
 * else by reading the sources again, so memory stays bounded by one snapshot.
 */
export async function importBatch(
  importer: Importer,
  sources: (() => AsyncIterable<ReadItem>)[],
  onProgress?: (p: BatchProgress) => void,
): Promise<ImportResult[]> {
  const errors: string[] = [];
  let total = 0;
  // a batch small enough is kept from the first pass instead of being read and parsed again
  let kept: Snapshot[] | null = [];
  let keptFlats = 0;
  for (const source of sources) {
    for await (const item of source()) {
      if ('errors' in item) errors.push(...item.errors);
      else {
        total++;
        keptFlats += item.snapshot.flats.length;
        if (kept && keptFlats <= KEEP_FLATS) kept.push(item.snapshot);
        else kept = null;
      }
      onProgress?.({ phase: 'validate', done: total, total: 0 });
    }
  }
  if (errors.length) throw new SnapshotValidationError(errors);
  const inMemory = kept;
  return importer.inOneTransaction(async (batch) => {
    const results: ImportResult[] = [];
    const applyOne = async (snapshot: Snapshot) => {
      const result = await importer.apply(snapshot, batch);
      results.push(result);
      onProgress?.({ phase: 'apply', done: results.length, total, result });
    };
    if (inMemory) {
      // kept whole: a deadlock retry runs the same snapshots again
      for (const snapshot of inMemory) await applyOne(snapshot);
      return results;
    }
    for (const source of sources) {
      for await (const item of source()) {
        if ('errors' in item) throw new SnapshotValidationError(item.errors);
        await applyOne(item.snapshot);
      }
    }
    return results;
  });
}

/** Flats a batch may hold in memory between its validation and its application. */
const KEEP_FLATS = 150_000;

/**
 * Imports snapshots already in memory (API bodies), validated by the caller, in order and in one
 * transaction: all of them or none.
 */
export async function importSnapshots(importer: Importer, snapshots: Snapshot[]): Promise<ImportResult[]> {
  return importer.inOneTransaction(async (batch) => {
    const results: ImportResult[] = [];
    for (const s of snapshots) results.push(await importer.apply(s, batch));
    return results;
  });
}
