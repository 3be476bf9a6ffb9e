import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type BinaryType, type BinaryValue, CopyBinaryReader, type EachRows } from './copy-binary.js';
import {
  type Column,
  type Db,
  INT8,
  identity,
  inlineParams,
  NUMERIC,
  TEXT_DATE,
  TIMESTAMP,
  TIMESTAMPTZ,
  toNumber,
} from './driver.js';

/** PostgreSQL behind the one `Db` handle (db/driver.ts): a pool of `pg` clients. */
export class PostgresDb implements Db {
  readonly kind = 'postgresql' as const;
  constructor(
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient | null = null,
  ) {}
  /**
   * A query on this transaction's client, else on a client of the pool taken for it. Not `pool.query`:
   * a client the pool makes keeps the callback of the first request it served for as long as it lives,
   * and with it that query's result — 10 clients holding the ~4 MB of rows each read at once on the
   * market's first request, marked again by every full collection.
   */
  private async borrow<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.client) return use(this.client);
    const client = await this.pool.connect();
    let failed: Error | undefined;
    // as `pool.query` does: the connection's own error (the server gone mid-query) fails the query, not
    // the process, and a client whose query failed is closed, not given to the next query
    const onError = (error: Error) => {
      failed = error;
    };
    client.on('error', onError);
    try {
      return await use(client);
    } catch (error) {
      failed ??= error as Error;
      throw error;
    } finally {
      client.off('error', onError);
      client.release(failed);
    }
  }
  private run(query: pg.QueryConfig & { rowMode?: 'array' }): Promise<pg.QueryResult> {
    return this.borrow((client) => client.query(query));
  }
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const res = await this.run({ text: sql, values: params });
    return res.rows as T[];
  }
  async exec(sql: string): Promise<void> {
    await this.run({ text: sql });
  }
  async insertColumns(table: string, columns: readonly Column[], values: readonly (readonly unknown[])[]) {
    if (!values[0]?.length) return;
    await this.query(
      `insert into ${table} (${columns.map(([name]) => name).join(', ')})
       select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`,
      values as unknown[],
    );
  }
  async textRows(sql: string, params: unknown[] = []): Promise<(string | null)[][]> {
    const res = await this.run({
      text: sql,
      values: params,
      rowMode: 'array',
      types: { getTypeParser: () => identity } as unknown as pg.CustomTypesConfig,
    });
    return res.rows as (string | null)[][];
  }
  async binaryRows(sql: string, params: unknown[], types: readonly BinaryType[]): Promise<BinaryValue[][]> {
    const out: BinaryValue[][] = [];
    await this.binaryEach(sql, params, types, (rows) => {
      for (const row of rows) out.push(row);
    });
    return out;
  }
  async binaryEach(
    sql: string,
    params: unknown[],
    types: readonly BinaryType[],
    each: EachRows,
  ): Promise<void> {
    return this.borrow(async (client) => {
      const stream = client.query(copyTo(`copy (${inlineParams(sql, params)}) to stdout (format binary)`));
      try {
        // each row read as its bytes come: the market's 5,000 summaries of a filter are ~68 MB, joined into
        // one buffer first they cost ~0.3 s of copying and a block of the thread that long
        const reader = new CopyBinaryReader(types);
        for await (const chunk of stream) {
          reader.push(chunk as Buffer);
          const rows = reader.take();
          if (rows.length) await each(rows);
        }
        const rest = reader.end();
        if (rest.length) await each(rest);
      } finally {
        // a connection with a read timeout (a replica's) arms a timer that only a query's callback clears;
        // a COPY stream has none of its own, so the timer is cleared here (it would fail the ended stream)
        (stream as unknown as { callback?: (error: Error | null) => void }).callback?.(null);
      }
    });
  }
  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.client) return fn(this);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new PostgresDb(this.pool, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  ensureSpace(): void {}
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => {
          broken = true;
        });
      }
    } finally {
      // a connection whose unlock failed is dropped, so the server frees the lock with it
      client.release(broken);
    }
  }
  async close(): Promise<void> {
    if (!this.client) await this.pool.end();
  }
}

/** A pool on `url`; dates as text and 64-bit integers as numbers, as PGlite gives them. */
export function openPostgres(url: string, timeoutMs?: number): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(timeoutMs ? { connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) => {
        if (oid === TEXT_DATE || oid === TIMESTAMPTZ || oid === TIMESTAMP) return identity;
        if (oid === INT8 || oid === NUMERIC) return toNumber;
        return pg.types.getTypeParser(oid, format as 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  // an idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return new PostgresDb(pool);
}
