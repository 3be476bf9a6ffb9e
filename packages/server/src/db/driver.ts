import { mkdirSync, statfsSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { DiskFullError } from '../lib/errors.js';
import type { BinaryType, BinaryValue, EachRows } from './copy-binary.js';

export type DatabaseKind = 'pglite' | 'postgresql';

/**
 * The one database handle every query takes as its first argument. Both drivers speak the same SQL;
 * dates come back as 'YYYY-MM-DD' text and 64-bit integers as numbers on both.
 */
export interface Db {
  readonly kind: DatabaseKind;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction; a throw rolls everything back. Nested calls join the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs fn holding a lock named `name` across every process on this database: a PostgreSQL session
   * advisory lock on its own connection (released by the server if this process dies), or an
   * in-process lock on PGlite (one process per data dir). Waits for a holder to finish.
   */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Throws DiskFullError unless the embedded database's disk has room for about `bytes` more (and the
   * headroom PGlite needs): PGlite may hang, not fail, when a write finds the disk full. A no-op on
   * PostgreSQL, whose server reports a full disk as an error.
   */
  ensureSpace(bytes: number): void;
  /**
   * Appends rows to `table`: `columns` name each column with its SQL type, `values` hold one array per
   * column (the rows are their positions). PostgreSQL inserts them from `unnest` of typed arrays; PGlite
   * reads them with COPY from a blob, 2–3× faster than the arrays it would serialise and parse.
   */
  insertColumns(
    table: string,
    columns: readonly Column[],
    values: readonly (readonly unknown[])[],
  ): Promise<void>;
  /**
   * The rows of a select with every value in its text form (null as null), as arrays in column order: the
   * bulk reads of a timeline. PGlite decodes rows in JavaScript at a few microseconds a value; here its
   * own COPY writes them as text (about 8× faster), the parameters inlined as literals. PostgreSQL
   * answers the query itself, every value left as the text the server sent.
   */
  textRows(sql: string, params?: unknown[]): Promise<(string | null)[][]>;
  /**
   * The rows of a select as arrays in column order, each value read by its entry of `types`: `int` (int4),
   * `text`, `bytea` (its bytes). PostgreSQL sends them in COPY's binary format (pg-copy-streams, the
   * parameters inlined as literals): a bytea comes as the bytes it is, never as base64 or hex text made into
   * a JavaScript string and decoded — the market's first ranking reads ~30 MB of them. PGlite returns them
   * from its query as they are.
   */
  binaryRows(sql: string, params: unknown[], types: readonly BinaryType[]): Promise<BinaryValue[][]>;
  /**
   * `binaryRows` handed over as they come: `each` gets the rows of each piece of the answer in order (and
   * is awaited before the next), so their work is done while PostgreSQL still reads and sends the rest — the
   * market's 5,000 summaries of a filter are decoded while their ~68 MB come. PGlite hands them all at once.
   */
  binaryEach(sql: string, params: unknown[], types: readonly BinaryType[], each: EachRows): Promise<void>;
  close(): Promise<void>;
}

export { type BinaryType, type BinaryValue, type EachRows, parseCopyBinary } from './copy-binary.js';

import { bytesAsBase64 } from './pglite-params.js';
import { holdsNoCluster, pgliteTemplate } from './pglite-template.js';

const PLAIN = /^[0-9A-Za-z_.:-]+$/;

/** A parameter written into SQL as a literal (PGlite's COPY takes no parameters). */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`sqlLiteral: ${v} is not a finite number`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  // arrays of numbers, or of plain words (dates, hex digests): their literal has nothing to escape
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'string' && PLAIN.test(x)))
      return `'{${v.map((x) => `"${x}"`).join(',')}}'`;
    return `'{${v.map((x) => sqlLiteral(typeof x === 'number' ? x : Number.NaN)).join(',')}}'`;
  }
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`sqlLiteral: unsupported ${typeof v}`);
}

/** A statement with its `$n` parameters written in as literals (COPY takes no parameters). */
export const inlineParams = (sql: string, params: unknown[]) =>
  sql.replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(params[Number(n) - 1]));

/** COPY's text format read back: rows by newline, values by tab, \N null, backslash escapes undone. */
export function parseCopyText(text: string): (string | null)[][] {
  const out: (string | null)[][] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    out.push(
      line.split('\t').map((v) => {
        if (v === '\\N') return null;
        if (!v.includes('\\')) return v;
        return v.replace(/\\(.)/g, (_, c: string) =>
          c === 't'
            ? '\t'
            : c === 'n'
              ? '\n'
              : c === 'r'
                ? '\r'
                : c === 'b'
                  ? '\b'
                  : c === 'f'
                    ? '\f'
                    : c === 'v'
                      ? '\v'
                      : c,
        );
      }),
    );
  }
  return out;
}

/** A column to insert and its SQL type. */
export type Column = readonly [name: string, type: 'int' | 'int8' | 'float8' | 'text' | 'date' | 'bool'];

/** A value in COPY's text format: \N for null, t/f, numbers as they are, text with its specials escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  const text = String(v);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : text;
}

/** Rows as COPY's text format: a tab between values, a newline after each row. */
export function copyText(values: readonly (readonly unknown[])[]): string {
  const rows = values[0]?.length ?? 0;
  const lines = new Array<string>(rows);
  for (let r = 0; r < rows; r++) {
    let line = copyValue(values[0][r]);
    for (let c = 1; c < values.length; c++) line += `\t${copyValue(values[c][r])}`;
    lines[r] = line;
  }
  return rows ? `${lines.join('\n')}\n` : '';
}

/** Free space PGlite keeps in reserve (a WAL segment and some). */
export const PGLITE_RESERVE_BYTES = 24 * 1024 * 1024;

/** In-process named locks: each waiter runs after the previous holder settles. */
class LocalLocks {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => {});
    this.tails.set(name, tail);
    void tail.then(() => {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return result;
  }
}

export const TEXT_DATE = 1082;
export const INT8 = 20;
export const NUMERIC = 1700;
export const TIMESTAMPTZ = 1184;
export const TIMESTAMP = 1114;

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  constructor(
    private readonly handle: PGlite | Parameters<Parameters<PGlite['transaction']>[0]>[0],
    private readonly root: PGlite,
    private readonly inTx = false,
    private readonly dataDir?: string,
  ) {}
  ensureSpace(bytes: number): void {
    if (!this.dataDir) return;
    const { bavail, bsize } = statfsSync(this.dataDir);
    if (bavail * bsize < PGLITE_RESERVE_BYTES + bytes) throw new DiskFullError(this.dataDir);
  }
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const res = await this.handle.query<T>(...bytesAsBase64(sql, params));
    return res.rows;
  }
  async exec(sql: string): Promise<void> {
    await this.handle.exec(sql);
  }
  async insertColumns(table: string, columns: readonly Column[], values: readonly (readonly unknown[])[]) {
    if (!values[0]?.length) return;
    await this.handle.query(
      `copy ${table} (${columns.map(([name]) => name).join(', ')}) from '/dev/blob'`,
      [],
      {
        blob: new Blob([copyText(values)]),
      },
    );
  }
  async textRows(sql: string, params: unknown[] = []): Promise<(string | null)[][]> {
    const res = (await this.handle.query(`copy (${inlineParams(sql, params)}) to '/dev/blob'`)) as {
      blob?: Blob;
    };
    return res.blob ? parseCopyText(await res.blob.text()) : [];
  }
  async binaryRows(sql: string, params: unknown[], types: readonly BinaryType[]): Promise<BinaryValue[][]> {
    const res = await this.handle.query<BinaryValue[]>(sql, params, { rowMode: 'array' });
    return res.rows.map((row) => row.map((v, i) => (types[i] === 'int' && v !== null ? Number(v) : v)));
  }
  async binaryEach(
    sql: string,
    params: unknown[],
    types: readonly BinaryType[],
    each: EachRows,
  ): Promise<void> {
    const rows = await this.binaryRows(sql, params, types);
    if (rows.length) await each(rows);
  }
  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.inTx) return fn(this);
    return this.root.transaction((tx) => fn(new PgliteDb(tx, this.root, true, this.dataDir)));
  }
  private static readonly locks = new LocalLocks();
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return PgliteDb.locks.run(name, fn);
  }
  async close(): Promise<void> {
    if (!this.inTx) await this.root.close();
  }
}

export const identity = (v: string) => v;
export const toNumber = (v: string) => (v === null ? null : Number(v));

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** a fresh in-memory PGlite (tests) */
  memory?: boolean;
  /** PostgreSQL: connecting and every query fail after this many ms (a replica that hangs, §11.2) */
  timeoutMs?: number;
}

const PGLITE_SHARED_BUFFERS = process.env.PGLITE_SHARED_BUFFERS ?? '32MB';

/** Opens PostgreSQL when a URL is given, else PGlite in dataDir (or in memory). */
export async function openDb(options: OpenOptions): Promise<Db> {
  if (options.databaseUrl) {
    // PostgreSQL's client, loaded when a database URL is opened (a server on PGlite starts without it)
    const { openPostgres } = await import('./postgres-db.js');
    return openPostgres(options.databaseUrl, options.timeoutMs);
  }
  if (!options.memory && options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const parsers = {
    [TEXT_DATE]: identity,
    [TIMESTAMPTZ]: identity,
    [TIMESTAMP]: identity,
    [INT8]: toNumber,
    [NUMERIC]: toNumber,
  };
  const dataDir = options.memory ? undefined : options.dataDir;
  // a new data dir (or an in-memory database) loaded from the build's empty cluster, not made by initdb
  const template = holdsNoCluster(dataDir) ? pgliteTemplate() : null;
  const db = await PGlite.create(dataDir, {
    ...(template ? { loadDataDir: template } : {}),
    parsers,
    // PGlite's default 128 MB of shared buffers is resident from the start; the engine reads derived
    // tables in bulk and caches them, so a small pool keeps a one-machine install light (docs/performance.md)
    postgresqlconf: [`shared_buffers = ${PGLITE_SHARED_BUFFERS}`],
  });
  void pgliteTypes;
  return new PgliteDb(db, db, false, options.memory ? undefined : options.dataDir);
}
