import { runStarted, type SourceRunResult } from '../collect/collector.js';
import { fetchRegistryDay, type RegistryFetchOptions } from '../collect/registry-collector.js';
import type { Actor } from '../db/queries/audit.js';
import {
  finishSourceRun,
  interruptRunning,
  runProgress,
  type Source,
  startSourceRun,
} from '../db/queries/sources.js';
import { printable } from '../ingest/snapshot.js';
import type { Host } from './host.js';
import { applyRegistryImport } from './registry.js';

/**
 * A collection of a `domrf` source (DESIGN §12.3): its day's answers fetched (collect/registry-collector.ts)
 * and imported through the registry's one door, recorded as the source's run like any collection — pages
 * are requests, «квартир» the objects listed, «снимков» the objects whose state changed; an object or a
 * list page that did not come is named in the run's error and counted as partial (it is asked again next
 * run; nothing of what came is lost). The raw answers are kept by the import (registry_raw), not the run.
 */
export async function collectRegistrySource(
  host: Host,
  source: Source,
  date: string,
  actor: Actor,
  options: RegistryFetchOptions = {},
): Promise<SourceRunResult> {
  return host.db.withLock(`cena-metra:source:${source.id}`, async () => {
    await interruptRunning(host.db, source.id);
    const runId = await startSourceRun(host.db, source.id, date);
    const out = runStarted(runId, source, date);
    let bytes = 0;
    try {
      // the run's record shows how far it got, a write a second at most («Источники» shows it while it runs)
      let shown = 0;
      let writing: Promise<void> = Promise.resolve();
      const onProgress = (p: { requests: number; objects: number }) => {
        if (Date.now() - shown < 1000) return;
        shown = Date.now();
        writing = writing.then(() => runProgress(host.db, runId, p.requests, p.objects)).catch(() => {});
      };
      const got = await fetchRegistryDay(host.db, source, date, { ...options, onProgress });
      await writing;
      out.pages = got.requests;
      out.flats = got.objects;
      bytes = got.bytes;
      const days = await applyRegistryImport(host, got.answers, actor);
      const refused = days.flatMap((d) => d.refused.map((r) => r.message));
      out.snapshots = days.reduce((s, d) => s + d.changed, 0);
      const problems = [...got.failures, ...refused];
      out.partial = problems.length;
      if (got.listFailed && got.objects === 0) out.status = 'failed';
      if (problems.length)
        out.error = printable(
          `не получено или не принято ${problems.length}: ${problems.slice(0, 20).join('; ')}`,
        ).slice(0, 4000);
    } catch (error) {
      out.status = 'failed';
      out.error = printable((error as Error).message).slice(0, 4000);
    }
    await finishSourceRun(
      host.db,
      runId,
      source.id,
      {
        status: out.status,
        httpStatus: null,
        pages: out.pages,
        flats: out.flats,
        snapshots: out.snapshots,
        bytes,
        etag: null,
        lastModified: null,
        raw: null,
        error: out.error,
        partial: out.partial,
      },
      1,
    );
    return out;
  });
}
