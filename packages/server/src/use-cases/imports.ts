import type { ImportResult } from '@cena-metra/contract';
import { analyzeAfterBulkLoad, plannedObservations } from '../db/migrate.js';
import { type Actor, auditImport } from '../db/queries/audit.js';
import { type BatchProgress, importBatch, importSnapshots } from '../ingest/batch.js';
import type { ReadItem } from '../ingest/readers/index.js';
import type { Snapshot } from '../ingest/snapshot.js';
import type { Host } from './host.js';

/** Snapshots applied at once from which an import may be a bulk load (below it, never). */
export const BULK_LOAD = 10;

/** Of the observations the tables' statistics know, the share a batch's flats must reach to be a bulk load. */
export const BULK_SHARE = 0.1;

/** What an import applied: the lists that changed the data, and their flats. */
export interface Applied {
  lists: number;
  flats: number;
}

/** What a batch applied (an unchanged list changes nothing). */
export function appliedOf(results: Pick<ImportResult, 'status' | 'flats'>[]): Applied {
  const changed = results.filter((r) => r.status !== 'unchanged');
  return { lists: changed.length, flats: changed.reduce((n, r) => n + r.flats, 0) };
}

/**
 * Whether the planner's statistics are out of date after `applied`: a bulk load — BULK_LOAD lists or more whose
 * flats are at least BULK_SHARE of the observations the statistics count (or the tables never analyzed). A day
 * of 5,000 lists sent 20 at a time is not one: each ANALYZE of the reference market's tables takes ~4 s, and
 * after every request it was ~900 s of the day's import; PostgreSQL's autovacuum keeps such growth counted.
 */
export async function isBulkLoad(host: Pick<Host, 'db'>, applied: Applied): Promise<boolean> {
  if (applied.lists < BULK_LOAD) return false;
  const planned = await plannedObservations(host.db);
  return planned < 0 || applied.flats >= planned * BULK_SHARE;
}

/**
 * What follows every import, whichever door it came through (DESIGN §12.2) — the one list, in order:
 * 1. the process's caches of the data forgotten;
 * 2. after a bulk load (`isBulkLoad`) the pace summaries laid out by filter again and the tables' statistics,
 *    which PostgreSQL plans by (db/migrate.ts: analyzeAfterBulkLoad);
 * 3. the market's kept spans brought up to date (use-cases/market-spans.ts: a server schedules the round);
 * 4. the watchlists' alerts of what came in, then the Telegram publisher told.
 * A project's derived data need nothing here: the import keeps them in its transaction (DESIGN §11.1). Each act
 * audits itself (an import, a collection run) before this runs.
 */
export async function followImport(host: Host, applied: Applied): Promise<void> {
  host.invalidate();
  if (applied.lists === 0) return;
  if (await isBulkLoad(host, applied)) await analyzeAfterBulkLoad(host.db);
  await host.keepMarket();
  await host.alertsThenNotify();
}

/** What an import takes: snapshots in memory (an API body), or readers of files streamed twice. */
export type ImportInput =
  | { snapshots: Snapshot[] }
  | { sources: (() => AsyncIterable<ReadItem>)[]; onProgress?: (p: BatchProgress) => void };

/**
 * An import (DESIGN §3.3, §12.2): the batch validated whole, then applied in one transaction (all of it or
 * nothing), audited by its actor, and followed by the one list of `followImport`. The API, the CLI and
 * anything else that imports call this and nothing else.
 */
export async function applyImport(host: Host, input: ImportInput, actor: Actor): Promise<ImportResult[]> {
  // a batch that fails changed nothing (one transaction): there is nothing to follow
  const results =
    'snapshots' in input
      ? await importSnapshots(host.importer, input.snapshots)
      : await importBatch(host.importer, input.sources, input.onProgress);
  try {
    if (results.length) await auditImport(host.db, actor, results);
  } finally {
    // what was applied is followed even when its audit row could not be written
    await followImport(host, appliedOf(results));
  }
  return results;
}
