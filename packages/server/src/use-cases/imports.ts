import type { ImportResult } from '@cena-metra/contract';
import { analyzeAfterBulkLoad } from '../db/migrate.js';
import { type Actor, auditImport } from '../db/queries/audit.js';
import { type BatchProgress, importBatch, importSnapshots } from '../ingest/batch.js';
import type { ReadItem } from '../ingest/readers/index.js';
import type { Snapshot } from '../ingest/snapshot.js';
import type { Host } from './host.js';

/** Snapshots applied at once from which the tables' statistics are brought up to date (a bulk load). */
export const BULK_LOAD = 10;

/** How many snapshots of a batch changed the data (an unchanged list changes nothing). */
export const appliedOf = (results: { status: ImportResult['status'] }[]) =>
  results.filter((r) => r.status !== 'unchanged').length;

/**
 * What follows every import, whichever door it came through (DESIGN §12.2) — the one list, in order:
 * 1. the process's caches of the data forgotten;
 * 2. after a bulk load (BULK_LOAD snapshots or more applied) the tables' statistics, which PostgreSQL plans by
 *    (db/migrate.ts: analyzeAfterBulkLoad);
 * 3. the market's kept spans brought up to date (use-cases/market-spans.ts: a server schedules the round);
 * 4. the watchlists' alerts of what came in, then the Telegram publisher told.
 * A project's derived data need nothing here: the import keeps them in its transaction (DESIGN §11.1). Each act
 * audits itself (an import, a collection run) before this runs.
 */
export async function followImport(host: Host, applied: number): Promise<void> {
  host.invalidate();
  if (applied === 0) return;
  if (applied >= BULK_LOAD) await analyzeAfterBulkLoad(host.db);
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
