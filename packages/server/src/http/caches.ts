import { LRUCache } from 'lru-cache';
import type { Db } from '../db/driver.js';
import { marketDataMark } from '../db/queries/projects.js';
import type { User } from '../db/queries/users.js';
import { type BodyEncoding, compressBody } from '../read/encoding.js';
import type { ReadCache } from '../read/read-cache.js';

/**
 * Signed-in users by token, for a few seconds: a request then needs no session query. Logout and a
 * password change in this process forget at once; a revocation by another process (the CLI on
 * PostgreSQL) takes effect within the TTL (5 s).
 */
export class SessionCache {
  private readonly entries: LRUCache<string, User>;

  constructor(ttlMs = 5_000) {
    this.entries = new LRUCache<string, User>({ max: 10_000, ttl: ttlMs, ttlAutopurge: false });
  }

  get(token: string): User | null {
    return this.entries.get(token) ?? null;
  }

  set(token: string, user: User): void {
    this.entries.set(token, user);
  }

  forgetUser(userId: number): void {
    for (const [token, user] of this.entries.entries()) if (user.id === userId) this.entries.delete(token);
  }
}

/**
 * The data version behind ETags and read caches, re-read at most every `ttlMs`; an import in this
 * process invalidates it at once (with PGlite every import is in this process).
 */
export class DataVersionCache {
  private value: string | null = null;
  private readAt = 0;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1_000,
  ) {}

  async get(now = Date.now()): Promise<string> {
    if (this.value === null || now - this.readAt > this.ttlMs) {
      this.value = await marketDataMark(this.db);
      this.readAt = now;
    }
    return this.value;
  }

  invalidate(): void {
    this.value = null;
  }
}

/**
 * One value per data version (small read responses such as the developer list); with `ttlMs`, read again
 * after that long too (a value that can change without a new data version, such as the demo flag).
 */
export class PerVersion<T> {
  private version: string | null = null;
  /** the value, or its read while under way (concurrent asks share it); a failed read is not kept */
  private value: Promise<T> | null = null;
  private readAt = 0;

  constructor(private readonly ttlMs = Number.POSITIVE_INFINITY) {}

  get(version: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.version !== version || this.value === null || now - this.readAt > this.ttlMs) {
      const value = load();
      this.value = value;
      this.version = version;
      this.readAt = now;
      value.catch(() => {
        if (this.value === value) this.value = null;
      });
    }
    return this.value;
  }
}

export interface CachedResponse {
  /** as serialized: a string, or the bytes a route writes itself (the market's ranking) */
  body: string | Buffer;
  type: string;
  gzip?: Buffer;
  br?: Buffer;
  /** its key in the shared cache */
  key: string;
}

/**
 * The largest response kept: the whole market's ranking with its table by place at 5,000 projects is ~1.6 MB of
 * JSON — over the 1 MB this was, it was computed and compressed on every «Рынок» opened (60–230 ms, the page's
 * other answers waiting behind it). The shared cache's budget bounds them all.
 */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Smaller bodies are sent as they are (as @fastify/compress does). */
const COMPRESS_THRESHOLD = 1024;

const responseBytes = (r: CachedResponse) => r.body.length + (r.gzip?.length ?? 0) + (r.br?.length ?? 0);

/**
 * Serialized read responses by data version and request (method, URL, body): a repeated read costs no
 * query and no serialization until the next import. They live in the one bounded cache beside the
 * readers' values (least recently used out first); a response larger than `maxEntryBytes` is not kept,
 * and a new data version drops the old one's.
 */
export class ResponseCache {
  private version: string | null = null;

  constructor(
    private readonly shared: ReadCache,
    private readonly maxEntryBytes = MAX_RESPONSE_BYTES,
  ) {}

  get(version: string, key: string): CachedResponse | undefined {
    if (version !== this.version) {
      this.turn(version);
      return undefined;
    }
    return this.shared.get<CachedResponse>(`response:${key}`, version);
  }

  set(version: string, key: string, body: string | Buffer, type: string): void {
    if (version !== this.version) this.turn(version);
    const kept = `response:${key}`;
    if (body.length > this.maxEntryBytes || this.shared.get(kept, version)) return;
    // a route's bytes may be the start of a larger buffer it wrote into: kept as a copy of their own size
    const own =
      typeof body === 'string' || body.byteLength === body.buffer.byteLength ? body : Buffer.from(body);
    this.shared.set<CachedResponse>(kept, version, { body: own, type, key: kept }, responseBytes);
  }

  /** The body in the encoding the client takes (compressed once, then kept with the entry). */
  encoded(entry: CachedResponse, encoding: BodyEncoding | null): Buffer | string {
    // (a body returned as it is, not `bytes`, is sent without a content-encoding)
    if (!encoding || entry.body.length < COMPRESS_THRESHOLD) return entry.body;
    let bytes = entry[encoding];
    if (!bytes) {
      bytes = compressBody(entry.body, encoding);
      entry[encoding] = bytes;
      this.shared.remeasure(entry.key);
    }
    return bytes;
  }

  private turn(version: string) {
    this.version = version;
    this.shared.dropStale('response:', version);
  }
}
