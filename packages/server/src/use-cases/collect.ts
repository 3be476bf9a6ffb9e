import { collectSource, loggedRun, reparseSource, type SourceRunResult } from '../collect/collector.js';
import type { RegistryFetchOptions } from '../collect/registry-collector.js';
import type { CollectReport } from '../collect/report.js';
import { type Actor, audit, auditImport, SCHEDULE } from '../db/queries/audit.js';
import { failingSources, type Source } from '../db/queries/sources.js';
import type { Host } from './host.js';
import { appliedOf, followImport } from './imports.js';
import { collectRegistrySource } from './registry-collect.js';

/** Sources collected at once by the daily collection: a slow developer's site does not hold the others. */
export const COLLECT_CONCURRENCY = 4;

export interface CollectedSource {
  source: Source;
  run: SourceRunResult;
}

/**
 * A collection (DESIGN §10.8, §12.2): each source fetched and imported (collect/collector.ts: one run,
 * recorded, the raw answer kept), a few at a time, each run audited by its actor («расписание» for the
 * daily job), then the one list of what follows an import, once for all of them. «Собрать» in the UI,
 * `cena-metra collect` and the daily job call this.
 */
export async function collectSources(
  host: Host,
  sources: Source[],
  date: string,
  actor: Actor,
  options: RegistryFetchOptions = {},
  concurrency = COLLECT_CONCURRENCY,
): Promise<CollectedSource[]> {
  const done: CollectedSource[] = [];
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const source = sources[next++];
      const run =
        source.kind === 'domrf'
          ? await collectRegistrySource(host, source, date, actor, options)
          : await collectSource(host.db, host.importer, source, date, options);
      await audit(host.db, actor, 'collect.run', source.name, null, loggedRun(run));
      done.push({ source, run });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));
  } finally {
    host.invalidate();
  }
  await followImport(host, appliedOf(done.flatMap((d) => d.run.results)));
  // in the order asked, whatever order they finished in
  return sources.flatMap((s) => done.filter((d) => d.source === s));
}

/**
 * The daily collection of every enabled source (the job of collect/job.ts): `collectSources` by the
 * schedule, then the day's report, audited as one row besides each run's.
 */
export async function collectDay(
  host: Host,
  sources: Source[],
  date: string,
  options: RegistryFetchOptions = {},
): Promise<CollectReport> {
  const enabled = sources.filter((s) => s.enabled);
  const runs = await collectSources(host, enabled, date, SCHEDULE, options);
  const count = (status: SourceRunResult['status']) => runs.filter((r) => r.run.status === status).length;
  const report: CollectReport = {
    date,
    sources: enabled.length,
    done: count('done'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    flats: runs.reduce((s, r) => s + r.run.flats, 0),
    failing: await failingSources(host.db),
    partial: runs.filter((r) => r.run.partial > 0).map((r) => r.source.name),
  };
  await audit(host.db, SCHEDULE, 'collect.scheduled', `сбор за ${date}`, null, report);
  return report;
}

/** The kept raw answers read again (after a reader is fixed): an import like any other, then its list. */
export async function reparseSources(host: Host, sources: Source[], actor: Actor) {
  const out: { source: Source; result: Awaited<ReturnType<typeof reparseSource>> }[] = [];
  try {
    for (const source of sources) {
      const result = await reparseSource(host.db, host.importer, source);
      if (result?.results.length) await auditImport(host.db, actor, result.results);
      out.push({ source, result });
    }
  } finally {
    host.invalidate();
  }
  await followImport(host, appliedOf(out.flatMap((o) => o.result?.results ?? [])));
  return out;
}
