import type { SourceRun, SourceView } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import type { SourceRunResult } from './collector.js';
import { getSource, listSources, type Source, shownUrl } from './sources.js';

interface RunRow {
  id: number;
  source_id: number;
  date: string;
  started_at: Date | string;
  finished_at: Date | string | null;
  status: SourceRun['status'];
  http_status: number | null;
  pages: number;
  flats: number;
  snapshots: number;
  partial: number;
  bytes: number | string;
  error: string | null;
}

const RUN_COLUMNS = `id, source_id, date::text as date, started_at, finished_at, status, http_status, pages, flats,
  snapshots, partial, bytes, error`;

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

/** The last two runs of each source: the last shown, both failed → the source is failing. */
async function lastRuns(db: Db, ids: number[]) {
  const rows = await db.query<RunRow & { n: number }>(
    `select * from (select ${RUN_COLUMNS}, row_number() over (partition by source_id order by id desc) as n
       from source_run where source_id = any($1::int[])) r where n <= 2 order by source_id, n`,
    [ids],
  );
  const by = new Map<number, RunRow[]>();
  for (const r of rows) by.set(r.source_id, [...(by.get(r.source_id) ?? []), r]);
  return by;
}

export async function sourceViews(db: Db, nextRun: Date | null): Promise<SourceView[]> {
  const sources = await listSources(db);
  const runs = await lastRuns(
    db,
    sources.map((s) => s.id),
  );
  return sources.map((s) => viewOf(s, runs.get(s.id) ?? [], nextRun));
}

export async function sourceView(db: Db, id: number, nextRun: Date | null): Promise<SourceView> {
  const s = await getSource(db, id);
  return viewOf(s, (await lastRuns(db, [id])).get(id) ?? [], nextRun);
}

export async function sourceRuns(db: Db, id: number, limit = 50): Promise<SourceRun[]> {
  await getSource(db, id);
  const rows = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from source_run where source_id = $1 order by id desc limit ${limit}`,
    [id],
  );
  return rows.map(runOf);
}

/** The run a collection just made, as the API shows it. */
export async function runById(db: Db, result: SourceRunResult): Promise<SourceRun> {
  const [row] = await db.query<RunRow>(`select ${RUN_COLUMNS} from source_run where id = $1`, [result.runId]);
  return runOf(row);
}
