import type { User } from '../auth/users.js';
import type { Db } from '../db/driver.js';
import { type BodyEncoding, compressBody } from '../read/encoding.js';

/**
 * Signed-in users by token, for a few seconds: a request then needs no session query. Logout and a
 * password change in this process forget at once; a revocation by another process (the CLI on
 * PostgreSQL) takes effect within SESSION_TTL_MS.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: User; until: number }>();

  constructor(private readonly ttlMs = 5_000) {}

  get(token: string, now = Date.now()): User | null {
    const hit = this.entries.get(token);
    if (!hit) return null;
    if (hit.until < now) {
      this.entries.delete(token);
      return null;
    }
    return hit.user;
  }

  set(token: string, user: User, now = Date.now()): void {
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(token, { user, until: now + this.ttlMs });
  }

  forgetUser(userId: number): void {
    for (const [token, hit] of this.entries) if (hit.user.id === userId) this.entries.delete(token);
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
      const [row] = await this.db.query<{ n: number; v: number }>(
        'select count(*)::int as n, coalesce(sum(data_version), 0)::bigint as v from project',
      );
      this.value = `${row.n}.${row.v}`;
      this.readAt = now;
    }
    return this.value;
  }

  invalidate(): void {
    this.value = null;
  }
}

/** One value per data version (small read responses such as the developer list). */
export class PerVersion<T> {
  private version: string | null = null;
  private value: T | undefined;

  async get(version: string, load: () => Promise<T>): Promise<T> {
    if (this.version !== version || this.value === undefined) {
      this.value = await load();
      this.version = version;
    }
    return this.value;
  }
}

export interface CachedResponse {
  body: string;
  type: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** Smaller bodies are sent as they are (as @fastify/compress does). */
const COMPRESS_THRESHOLD = 1024;

/**
 * Serialized read responses by data version and request (method, URL, body): a repeated read costs no
 * query and no serialization until the next import. Least recently used entries go first past `maxBytes`;
 * a response larger than `maxEntryBytes` is not kept.
 */
export class ResponseCache {
  private version: string | null = null;
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly maxEntryBytes = 1024 * 1024,
  ) {}

  get(version: string, key: string): CachedResponse | undefined {
    if (version !== this.version) {
      this.clear(version);
      return undefined;
    }
    const hit = this.entries.get(key);
    if (hit) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(version: string, key: string, body: string, type: string): void {
    if (version !== this.version) this.clear(version);
    if (body.length > this.maxEntryBytes || this.entries.has(key)) return;
    this.entries.set(key, { body, type });
    this.bytes += body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length + (v.gzip?.length ?? 0) + (v.br?.length ?? 0);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The body in the encoding the client takes (compressed once, then kept with the entry). */
  encoded(entry: CachedResponse, encoding: BodyEncoding | null): Buffer | string {
    if (!encoding || entry.body.length < COMPRESS_THRESHOLD) return entry.body;
    let bytes = entry[encoding];
    if (!bytes) {
      bytes = compressBody(entry.body, encoding);
      entry[encoding] = bytes;
      this.bytes += bytes.length;
    }
    return bytes;
  }

  private clear(version: string) {
    this.entries.clear();
    this.bytes = 0;
    this.version = version;
  }
}
