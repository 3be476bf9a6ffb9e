import { type BinaryType, type BinaryValue, type Column, type Db, type EachRows, openDb } from './driver.js';

/** What the last look at a replica found. */
export type ReplicaState = 'unknown' | 'ok' | 'lagging' | 'down' | 'not-a-replica';

export interface ReplicaStatus {
  /** its place in DATABASE_READ_URL, from 1 (an address is never shown: it may hold a password) */
  replica: number;
  state: ReplicaState;
  /** seconds behind the primary at the last look (0 when it had replayed all the primary had written) */
  lagSeconds: number | null;
  /** reads it answered since the start */
  reads: number;
}

export interface ReplicaOptions {
  /** a replica further behind than this is skipped (MAX_REPLICA_LAG_S) */
  maxLagS: number;
  /** connecting to or a query on a replica fails after this long (REPLICA_TIMEOUT_S) */
  timeoutMs: number;
  /** how often every replica is looked at */
  checkEveryMs?: number;
}

interface Replica extends ReplicaStatus {
  db: Db;
}

/**
 * Reads that tolerate replica lag, sent to a PostgreSQL streaming replica (DESIGN §11.2); everything else
 * — and every read while no replica is fit — goes to the primary. A timer looks at each replica every
 * second: it must be in recovery and at most `maxLagS` behind (its replay position at or past the
 * primary's, or its last replayed transaction that recent). Reads stay on the first fit replica in the
 * configured order, so a client's pages and their data version come from one server. A read that fails
 * on a replica (stopped, timed out, answering garbage) marks it down and is answered by the primary, so no
 * request fails for a replica's sake; the next look brings it back when it is fit again.
 */
export class ReadRouter implements Db {
  readonly kind = 'postgresql' as const;
  private readonly timer: NodeJS.Timeout;
  private checking: Promise<void> | null = null;
  primaryReads = 0;

  private constructor(
    private readonly primary: Db,
    private readonly replicas: Replica[],
    private readonly options: ReplicaOptions,
  ) {
    this.timer = setInterval(() => void this.check(), options.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  /** Opens a pool per replica URL and looks at each once before the first read. */
  static async open(primary: Db, urls: readonly string[], options: ReplicaOptions): Promise<ReadRouter> {
    const replicas: Replica[] = [];
    for (const [i, url] of urls.entries())
      replicas.push({
        replica: i + 1,
        db: await openDb({ databaseUrl: url, timeoutMs: options.timeoutMs }),
        state: 'unknown',
        lagSeconds: null,
        reads: 0,
      });
    const router = new ReadRouter(primary, replicas, options);
    await router.check();
    return router;
  }

  status(): ReplicaStatus[] {
    return this.replicas.map(({ replica, state, lagSeconds, reads }) => ({
      replica,
      state,
      lagSeconds,
      reads,
    }));
  }

  /** Looks at every replica now (a look already under way is joined). */
  check(): Promise<void> {
    this.checking ??= this.lookAtAll().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async lookAtAll(): Promise<void> {
    let primaryLsn: string;
    try {
      const [row] = await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      primaryLsn = row.lsn;
    } catch {
      return; // the primary itself is unreachable: nothing to compare with; states stay as they were
    }
    await Promise.all(this.replicas.map((r) => this.lookAt(r, primaryLsn)));
  }

  private async lookAt(replica: Replica, primaryLsn: string): Promise<void> {
    try {
      const [row] = await replica.db.query<{
        recovery: boolean;
        caught_up: boolean | null;
        lag: number | null;
      }>(
        `select pg_is_in_recovery() as recovery,
                pg_last_wal_replay_lsn() >= $1::pg_lsn as caught_up,
                extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as lag`,
        [primaryLsn],
      );
      if (typeof row?.recovery !== 'boolean') throw new Error('unexpected answer');
      if (!row.recovery) {
        replica.state = 'not-a-replica';
        replica.lagSeconds = null;
        return;
      }
      const lag = row.caught_up ? 0 : row.lag === null ? Number.POSITIVE_INFINITY : Math.max(0, row.lag);
      replica.lagSeconds = Number.isFinite(lag) ? Math.round(lag * 10) / 10 : null;
      replica.state = lag <= this.options.maxLagS ? 'ok' : 'lagging';
    } catch {
      replica.state = 'down';
      replica.lagSeconds = null;
    }
  }

  private async read<T>(run: (db: Db) => Promise<T>): Promise<T> {
    const replica = this.replicas.find((r) => r.state === 'ok');
    if (replica) {
      try {
        const result = await run(replica.db);
        replica.reads++;
        return result;
      } catch {
        // stopped, timed out or answering nonsense: skipped until the next look finds it fit
        replica.state = 'down';
      }
    }
    this.primaryReads++;
    return run(this.primary);
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.read((db) => db.query<T>(sql, params));
  }
  binaryRows(sql: string, params: unknown[], types: readonly BinaryType[]): Promise<BinaryValue[][]> {
    return this.read((db) => db.binaryRows(sql, params, types));
  }
  /**
   * As `read`, but an answer handed over in pieces is not asked of the primary again once a piece was taken
   * (its rows would come twice): the read fails; and an error of `each` itself is not the replica's.
   */
  async binaryEach(
    sql: string,
    params: unknown[],
    types: readonly BinaryType[],
    each: EachRows,
  ): Promise<void> {
    const replica = this.replicas.find((r) => r.state === 'ok');
    if (replica) {
      let taken = false;
      let own: { error: unknown } | null = null;
      try {
        await replica.db.binaryEach(sql, params, types, async (rows) => {
          taken = true;
          try {
            await each(rows);
          } catch (error) {
            own = { error };
            throw error;
          }
        });
        replica.reads++;
        return;
      } catch (error) {
        if (own) throw (own as { error: unknown }).error;
        replica.state = 'down';
        if (taken) throw error;
      }
    }
    this.primaryReads++;
    return this.primary.binaryEach(sql, params, types, each);
  }
  textRows(sql: string, params?: unknown[]): Promise<(string | null)[][]> {
    return this.read((db) => db.textRows(sql, params));
  }
  // whatever writes, locks or needs a transaction is the primary's
  exec(sql: string): Promise<void> {
    return this.primary.exec(sql);
  }
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.primary.transaction(fn);
  }
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.primary.withLock(name, fn);
  }
  ensureSpace(bytes: number): void {
    this.primary.ensureSpace(bytes);
  }
  insertColumns(table: string, columns: readonly Column[], values: readonly (readonly unknown[])[]) {
    return this.primary.insertColumns(table, columns, values);
  }
  /** Closes the replicas' pools; the primary is its owner's to close. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    await Promise.all(this.replicas.map((r) => r.db.close().catch(() => {})));
  }
}
