import type { SourceKind, SourceRun } from '@cena-metra/contract';
import { NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';

// The sources of price lists and their runs (DESIGN §10.8): what is stored, read by id or name.

/** A developer's price list at a URL, collected by schedule (DESIGN §10.8). */
export interface Source {
  id: number;
  name: string;
  kind: SourceKind;
  url: string;
  headers: Record<string, string>;
  developer: string | null;
  project: string | null;
  enabled: boolean;
}

/** A source's stored fields, checked by its act (collect/sources.ts). */
export type SourceFields = Omit<Source, 'id' | 'enabled'> & { enabled: boolean };

interface SourceRow extends Omit<Source, 'headers'> {
  headers: string;
}

const fromRow = (r: SourceRow): Source => ({
  ...r,
  headers: JSON.parse(r.headers) as Record<string, string>,
});

export async function listSources(db: Db): Promise<Source[]> {
  return (await db.query<SourceRow>('select * from source order by lower(name), id')).map(fromRow);
}

/** A source by id or by name (case-insensitive); 404 when there is none. */
export async function getSource(db: Db, key: string | number): Promise<Source> {
  const byId = typeof key === 'number' || /^\d+$/.test(key);
  const [row] = await db.query<SourceRow>(
    byId ? 'select * from source where id = $1' : 'select * from source where lower(name) = lower($1)',
    [byId ? Number(key) : key],
  );
  if (!row) throw new NotFoundError(`источник «${key}» не найден`);
  return fromRow(row);
}

/** Whether another source (not `exceptId`) has this name, in any case. */
export async function sourceNameTaken(db: Db, name: string, exceptId = 0): Promise<boolean> {
  const [clash] = await db.query('select 1 from source where lower(name) = lower($1) and id <> $2', [
    name,
    exceptId,
  ]);
  return clash !== undefined;
}

export async function insertSource(db: Db, s: SourceFields): Promise<Source> {
  const [row] = await db.query<SourceRow>(
    `insert into source (name, kind, url, headers, developer, project, enabled)
     values ($1, $2, $3, $4, $5, $6, $7) returning *`,
    [s.name, s.kind, s.url, JSON.stringify(s.headers), s.developer, s.project, s.enabled],
  );
  return fromRow(row);
}

export async function saveSource(db: Db, id: number, s: SourceFields): Promise<Source> {
  const [row] = await db.query<SourceRow>(
    `update source set name = $2, kind = $3, url = $4, headers = $5, developer = $6, project = $7, enabled = $8
     where id = $1 returning *`,
    [id, s.name, s.kind, s.url, JSON.stringify(s.headers), s.developer, s.project, s.enabled],
  );
  return fromRow(row);
}

/** A source's address changed by name (the demo's feeds follow the server's port), nothing audited. */
export async function moveSourceUrl(db: Db, name: string, url: string): Promise<void> {
  await db.query('update source set url = $2 where lower(name) = lower($1)', [name, url]);
}

/** Removes a source with its runs (the runs go by cascade; its snapshots stay). */
export async function deleteSourceRow(db: Db, id: number): Promise<void> {
  await db.query('delete from source where id = $1', [id]);
}

/** Each source's last run (the CLI's list): its day, status and flats. */
export async function lastRuns(
  db: Db,
): Promise<Map<number, { date: string; status: string; flats: number }>> {
  const rows = await db.query<{ source_id: number; date: string; status: string; flats: number }>(
    `select distinct on (source_id) source_id, date::text as date, status, flats from source_run
     order by source_id, id desc`,
  );
  return new Map(rows.map((r) => [r.source_id, r]));
}

/** Sources whose last two runs failed (DESIGN §10.8: reported). */
export async function failingSources(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select s.name from source s where s.enabled and (
       select count(*) from (select status from source_run r where r.source_id = s.id order by r.id desc limit 2) l
       where l.status = 'failed') = 2
     order by lower(s.name)`,
  );
  return rows.map((r) => r.name);
}

/** A run as stored. */
export interface RunRow {
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

/** The last two runs of each source, newest first: the last shown, both failed → the source is failing. */
export async function lastTwoRuns(db: Db, ids: number[]): Promise<Map<number, RunRow[]>> {
  const rows = await db.query<RunRow & { n: number }>(
    `select * from (select ${RUN_COLUMNS}, row_number() over (partition by source_id order by id desc) as n
       from source_run where source_id = any($1::int[])) r where n <= 2 order by source_id, n`,
    [ids],
  );
  const by = new Map<number, RunRow[]>();
  for (const r of rows) by.set(r.source_id, [...(by.get(r.source_id) ?? []), r]);
  return by;
}

/** A source's runs, newest first. */
export async function sourceRunRows(db: Db, id: number, limit: number): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from source_run where source_id = $1 order by id desc limit ${Math.trunc(limit)}`,
    [id],
  );
}

export async function runRow(db: Db, runId: number): Promise<RunRow> {
  const [row] = await db.query<RunRow>(`select ${RUN_COLUMNS} from source_run where id = $1`, [runId]);
  return row;
}

/** The raw list of the source's last run that has one, with its validators. */
export async function lastRaw(db: Db, sourceId: number) {
  const [row] = await db.query<{ raw: Buffer; etag: string | null; last_modified: string | null }>(
    `select raw, etag, last_modified from source_run where source_id = $1 and raw is not null
       and status in ('done', 'unchanged') order by id desc limit 1`,
    [sourceId],
  );
  return row ? { gzipped: row.raw, etag: row.etag, lastModified: row.last_modified } : null;
}

/** The last run that kept its raw list, whatever its status (a reparse reads it again). */
export async function lastRawRun(db: Db, sourceId: number) {
  const [run] = await db.query<{ id: number; date: string; raw: Buffer }>(
    `select id, date::text as date, raw from source_run where source_id = $1 and raw is not null
     order by id desc limit 1`,
    [sourceId],
  );
  return run ?? null;
}

/** A run still 'running' was cut off (a process killed): marked interrupted. */
export async function interruptRunning(db: Db, sourceId: number): Promise<void> {
  await db.query(
    `update source_run set status = 'interrupted', finished_at = now(),
       error = coalesce(error, 'сбор прерван: процесс остановлен')
     where source_id = $1 and status = 'running'`,
    [sourceId],
  );
}

/** A run recorded from its start; its id. */
export async function startSourceRun(db: Db, sourceId: number, date: string): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>(
    'insert into source_run (source_id, date) values ($1, $2) returning id',
    [sourceId, date],
  );
  return id;
}

/** A run's progress so far (its requests and the objects or flats seen), while it is running. */
export async function runProgress(db: Db, runId: number, pages: number, flats: number): Promise<void> {
  await db.query("update source_run set pages = $2, flats = $3 where id = $1 and status = 'running'", [
    runId,
    pages,
    flats,
  ]);
}

/** What a run ended with. */
export interface RunEnd {
  status: SourceRun['status'];
  httpStatus: number | null;
  pages: number;
  flats: number;
  snapshots: number;
  bytes: number;
  etag: string | null;
  lastModified: string | null;
  raw: Buffer | null;
  error: string | null;
  partial: number;
}

/** Ends a run; of a source's raw lists only the last `kept` stay (a day's feed gzipped is megabytes). */
export async function finishSourceRun(
  db: Db,
  runId: number,
  sourceId: number,
  end: RunEnd,
  kept: number,
): Promise<void> {
  await db.query(
    `update source_run set finished_at = now(), status = $2, http_status = $3, pages = $4, flats = $5,
       snapshots = $6, bytes = $7, etag = $8, last_modified = $9, raw = $10, error = $11, partial = $12
     where id = $1`,
    [
      runId,
      end.status,
      end.httpStatus,
      end.pages,
      end.flats,
      end.snapshots,
      end.bytes,
      end.etag,
      end.lastModified,
      end.raw,
      end.error,
      end.partial,
    ],
  );
  await db.query(
    `update source_run set raw = null where source_id = $1 and raw is not null and id not in (
       select id from source_run where source_id = $1 and raw is not null order by id desc limit ${Math.trunc(kept)})`,
    [sourceId],
  );
}
