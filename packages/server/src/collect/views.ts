import type { SourceRun, SourceView } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import {
  getSource,
  lastTwoRuns,
  listSources,
  type RunRow,
  runRow,
  type Source,
  sourceRunRows,
} from '../db/queries/sources.js';
import type { SourceRunResult } from './collector.js';
import { shownUrl } from './sources.js';

const iso = (v: Date | string) => new Date(v).toISOString();

function runOf(r: RunRow): SourceRun {
  return {
    id: r.id,
    date: r.date,
    startedAt: iso(r.started_at),
    finishedAt: r.finished_at === null ? null : iso(r.finished_at),
    status: r.status,
    httpStatus: r.http_status,
    pages: r.pages,
    flats: r.flats,
    snapshots: r.snapshots,
    partial: r.partial,
    bytes: Number(r.bytes),
    error: r.error,
  };
}

function viewOf(s: Source, runs: RunRow[], nextRun: Date | null): SourceView {
  return {
    id: s.id,
    name: s.name,
    kind: s.kind,
    url: shownUrl(s.url),
    headerNames: Object.keys(s.headers),
    developer: s.developer,
    project: s.project,
    enabled: s.enabled,
    lastRun: runs[0] ? runOf(runs[0]) : null,
    failing: runs.length >= 2 && runs[0].status === 'failed' && runs[1].status === 'failed',
    nextRun: s.enabled && nextRun ? nextRun.toISOString() : null,
  };
}

export async function sourceViews(db: Db, nextRun: Date | null): Promise<SourceView[]> {
  const sources = await listSources(db);
  const runs = await lastTwoRuns(
    db,
    sources.map((s) => s.id),
  );
  return sources.map((s) => viewOf(s, runs.get(s.id) ?? [], nextRun));
}

export async function sourceView(db: Db, id: number, nextRun: Date | null): Promise<SourceView> {
  const s = await getSource(db, id);
  return viewOf(s, (await lastTwoRuns(db, [id])).get(id) ?? [], nextRun);
}

export async function sourceRuns(db: Db, id: number, limit = 50): Promise<SourceRun[]> {
  await getSource(db, id);
  return (await sourceRunRows(db, id, limit)).map(runOf);
}

/** The run a collection just made, as the API shows it. */
export async function runById(db: Db, result: SourceRunResult): Promise<SourceRun> {
  return runOf(await runRow(db, result.runId));
}
