import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { ImportResult } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import {
  finishSourceRun,
  interruptRunning,
  lastRaw,
  lastRawRun,
  type Source,
  startSourceRun,
} from '../db/queries/sources.js';
import { importBatch } from '../ingest/batch.js';
import type { Importer } from '../ingest/importer.js';
import { type Format, type ReadItem, readFileSnapshots } from '../ingest/readers/index.js';
import { pikSnapshot } from '../ingest/readers/pik.js';
import { printable } from '../ingest/snapshot.js';
import { FetchError, type FetchOptions, fetchList } from './fetch.js';

/** Runs of a source whose raw body is kept (reparse and conditional requests need the latest only). */
export const RAW_KEPT = 7;

/** Pages the PIK API is asked for at most in one collection (a project has a few thousand lots). */
export const MAX_PAGES = 200;

/** How a collection of one source ended (DESIGN §10.8), as its run record says. */
export interface SourceRunResult {
  runId: number;
  sourceId: number;
  date: string;
  status: 'done' | 'unchanged' | 'failed';
  pages: number;
  flats: number;
  snapshots: number;
  /** snapshots of this run that are partial (§10.4): reported like a failure */
  partial: number;
  error: string | null;
  results: ImportResult[];
}

/** A run's result as it starts: done, nothing yet (a price list's or the registry's, collect/ and use-cases/). */
export function runStarted(runId: number, source: Source, date: string): SourceRunResult {
  return {
    runId,
    sourceId: source.id,
    date,
    status: 'done',
    pages: 0,
    flats: 0,
    snapshots: 0,
    partial: 0,
    error: null,
    results: [],
  };
}

/** What the audit log keeps of a run. */
export const loggedRun = (r: SourceRunResult) => ({
  date: r.date,
  status: r.status,
  flats: r.flats,
  ...(r.error ? { error: r.error } : {}),
});

const FILE_OF: Record<Exclude<Source['kind'], 'domrf'>, { name: string; format: Format }> = {
  'pik-api': { name: 'pik.json', format: 'pik' },
  yrl: { name: 'feed.xml', format: 'yrl' },
  json: { name: 'list.json', format: 'json' },
  ndjson: { name: 'list.ndjson', format: 'ndjson' },
  csv: { name: 'list.csv', format: 'csv' },
};

/** How a price list of the source is kept and read (a `domrf` source is the registry's: use-cases/registry-collect.ts). */
function fileOf(source: Source) {
  if (source.kind === 'domrf') throw new Error(`«${source.name}»: источник реестра собирается как реестр`);
  return FILE_OF[source.kind];
}

/** The PIK API page by page (`page=1, 2, …`) until a page brings no flats: one response of all of them. */
async function fetchPikPages(source: Source, options: FetchOptions) {
  const flats: unknown[] = [];
  let pages = 0;
  let httpStatus = 200;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const url = new URL(source.url);
    url.searchParams.set('page', String(page));
    const got = await fetchList(url.toString(), { ...options, headers: source.headers });
    if (got.status !== 'ok') break;
    httpStatus = got.httpStatus;
    let body: unknown;
    try {
      body = JSON.parse(got.body.toString('utf8'));
    } catch {
      throw new FetchError(`страница ${page}: не JSON`, got.httpStatus);
    }
    const list = Array.isArray(body) ? body : (body as { flats?: unknown })?.flats;
    if (!Array.isArray(list)) throw new FetchError(`страница ${page}: нет массива flats`, got.httpStatus);
    if (list.length === 0) break;
    pages++;
    flats.push(...list);
  }
  return { raw: Buffer.from(JSON.stringify({ flats })), pages, httpStatus };
}

/** Reads a raw list of a source, kept in `file`, as snapshots of `date` with the source's developer and project. */
export async function* readRaw(source: Source, file: string, date: string): AsyncGenerator<ReadItem> {
  const options = {
    date,
    ...(source.developer && { developer: source.developer }),
    ...(source.project && { project: source.project }),
  };
  if (source.kind === 'pik-api') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      yield { errors: [`${source.name}: не удалось разобрать JSON: ${printable((error as Error).message)}`] };
      return;
    }
    yield pikSnapshot(parsed, source.name, options);
    return;
  }
  // the readers stream from the file, named so that messages say the source
  yield* readFileSnapshots(file, { ...options, format: fileOf(source).format });
}

/** A run's working file, named after the source so that readers' messages name it. */
function rawFileIn(dir: string, source: Source): string {
  return join(dir, `${source.name.replace(/[^\p{L}\p{N}._-]+/gu, '_')}-${fileOf(source).name}`);
}

/** A file gzipped, streamed (a 100 MB feed is never held whole). */
async function gzipFile(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(createReadStream(file), createGzip(), async (compressed: AsyncIterable<Buffer>) => {
    for await (const chunk of compressed) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/** A stored raw list written back to a file. */
async function gunzipTo(raw: Buffer, file: string): Promise<void> {
  const gunzip = createGunzip();
  const done = pipeline(gunzip, createWriteStream(file));
  gunzip.end(raw);
  await done;
}

/**
 * Collects one source for `date`: fetches its list (pages for the PIK API; a conditional request
 * otherwise: an unchanged list is the day's snapshot again), keeps the raw body gzipped, and imports it
 * through the ordinary import (validated, all-or-nothing, idempotent, §10.4). The run is recorded from
 * its start; a process killed meanwhile leaves it 'running' and the import not applied.
 */
export async function collectSource(
  db: Db,
  importer: Importer,
  source: Source,
  date: string,
  options: FetchOptions = {},
): Promise<SourceRunResult> {
  // one collection of a source at a time, across processes: a run still 'running' here was cut off (a
  // process killed); its import was one transaction, so nothing of it was stored
  return db.withLock(`cena-metra:source:${source.id}`, async () => {
    await interruptRunning(db, source.id);
    return collectLocked(db, importer, source, date, options);
  });
}

async function collectLocked(
  db: Db,
  importer: Importer,
  source: Source,
  date: string,
  options: FetchOptions,
): Promise<SourceRunResult> {
  const runId = await startSourceRun(db, source.id, date);
  const out = runStarted(runId, source, date);
  let stored: Buffer | null = null;
  let bytes = 0;
  let httpStatus: number | null = null;
  let validators: { etag: string | null; lastModified: string | null } = { etag: null, lastModified: null };
  const dir = mkdtempSync(join(tmpdir(), 'cena-collect-'));
  const file = rawFileIn(dir, source);
  let fetched = false;
  try {
    if (source.kind === 'pik-api') {
      const got = await fetchPikPages(source, options);
      writeFileSync(file, got.raw);
      out.pages = got.pages;
      httpStatus = got.httpStatus;
    } else {
      const previous = await lastRaw(db, source.id);
      const got = await fetchList(source.url, {
        ...options,
        headers: source.headers,
        etag: previous?.etag,
        lastModified: previous?.lastModified,
        toFile: file,
      });
      httpStatus = got.httpStatus;
      out.pages = 1;
      if (got.status === 'unchanged') {
        if (!previous) throw new FetchError('сервер ответил 304, а прежнего списка нет', 304);
        await gunzipTo(previous.gzipped, file);
        stored = previous.gzipped;
        validators = { etag: previous.etag, lastModified: previous.lastModified };
        out.status = 'unchanged';
      } else validators = { etag: got.etag, lastModified: got.lastModified };
    }
    fetched = true;
    bytes = statSync(file).size;
    stored ??= await gzipFile(file);
    out.results = await importBatch(importer, [() => readRaw(source, file, date)]);
    out.snapshots = out.results.length;
    out.flats = out.results.reduce((sum, r) => sum + r.flats, 0);
    out.partial = out.results.filter((r) => r.partial).length;
  } catch (error) {
    out.status = 'failed';
    out.error = printable((error as Error).message).slice(0, 4000);
    if (error instanceof FetchError && error.httpStatus !== null) httpStatus = error.httpStatus;
    if (fetched && !stored) stored = await gzipFile(file).catch(() => null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await finishSourceRun(
    db,
    runId,
    source.id,
    {
      status: out.status,
      httpStatus,
      pages: out.pages,
      flats: out.flats,
      snapshots: out.snapshots,
      bytes,
      etag: validators.etag,
      lastModified: validators.lastModified,
      raw: stored,
      error: out.error,
      partial: out.partial,
    },
    RAW_KEPT,
  );
  return out;
}

/**
 * Reads the last stored list of a source again (after a reader was fixed) and imports it for the date it
 * was collected on: the day's snapshot is replaced by what the reader now makes of it.
 */
export async function reparseSource(db: Db, importer: Importer, source: Source) {
  const run = await lastRawRun(db, source.id);
  if (!run) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cena-reparse-'));
  try {
    const file = rawFileIn(dir, source);
    await gunzipTo(run.raw, file);
    const results = await importBatch(importer, [() => readRaw(source, file, run.date)]);
    return { runId: run.id, date: run.date, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
