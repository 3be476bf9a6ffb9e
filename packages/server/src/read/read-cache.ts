import { LRUCache } from 'lru-cache';

/** CACHE_MB's default: the whole in-memory layer in front of the kept data. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

interface Entry {
  version: number | string;
  value: unknown;
  bytes: (value: unknown) => number;
}

/**
 * The one bounded in-memory layer in front of the kept data (DESIGN §11.1): every reader's per-project
 * values and the serialized responses share one byte budget (CACHE_MB, default 256 MB), least recently
 * used out first (lru-cache, docs/decisions.md); a reader whose values others must not push out has a share of
 * that budget of its own (`part`). Nothing here is needed for a quick first answer — the
 * kept tables are — it only spares a repeated one the reading.
 */
export class ReadCache {
  private lru: LRUCache<string, Entry>;
  private budget: number;
  private readonly parts = new Map<string, ReadCache>();

  constructor(maxBytes = DEFAULT_CACHE_BYTES) {
    this.budget = maxBytes;
    this.lru = lruOf(maxBytes);
  }

  /**
   * A share of this budget of its own, named — `bytes` of it, at most half; this one's smaller by as much —
   * whose values only its own push out (least recently used first): «Рынок»'s rank months, read ahead at a
   * server's start, were pushed out by the projects' pages opened before the market's first request. The
   * same name gives the same share; a new share is asked before anything is kept.
   */
  part(name: string, bytes: number): ReadCache {
    const had = this.parts.get(name);
    if (had) return had;
    if (this.lru.size) throw new Error('ReadCache.part: asked after values were kept');
    const share = Math.min(bytes, Math.floor(this.budget / 2));
    this.budget -= share;
    this.lru = lruOf(this.budget);
    const part = new ReadCache(share);
    this.parts.set(name, part);
    return part;
  }

  /** The value of `key` if it is kept at `version` (and then the most recently used). */
  get<V>(key: string, version: number | string): V | undefined {
    const e = this.lru.get(key);
    return e && e.version === version ? (e.value as V) : undefined;
  }

  /** The value of `key` at whatever version it is kept (recency untouched): what a newer one may reuse. */
  peek<V>(key: string): V | undefined {
    return this.lru.peek(key)?.value as V | undefined;
  }

  /** Keeps `value` of `key` at `version`, measured by `bytes` (not kept when larger than the budget). */
  set<V>(key: string, version: number | string, value: V, bytes: (value: V) => number): void {
    this.lru.set(key, { version, value, bytes: bytes as (value: unknown) => number });
  }

  /** Measures again the entry of `key` after its value grew in place (older entries go past the budget). */
  remeasure(key: string): void {
    const e = this.lru.peek(key);
    // a new wrapper: lru-cache re-measures only a value it has not seen
    if (e) this.lru.set(key, { ...e });
  }

  /** Drops every entry whose key starts with `prefix` and is not at `version`. */
  dropStale(prefix: string, version: number | string): void {
    for (const [key, e] of this.lru.entries())
      if (key.startsWith(prefix) && e.version !== version) this.lru.delete(key);
  }

  /** the bytes kept, as measured */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get size(): number {
    return this.lru.size;
  }
}

const lruOf = (maxSize: number) =>
  new LRUCache<string, Entry>({
    maxSize,
    sizeCalculation: (e) => Math.max(1, Math.ceil(e.bytes(e.value))),
  });

/** One reader's per-project values in the shared cache: key `kind:projectId`, stale versions replaced. */
export class ProjectCache<V> {
  /**
   * each project's key, made once: a ranking looks up thousands of projects a request, and a key made anew
   * each time is a new string to hash
   */
  private readonly keys = new Map<number, string>();

  constructor(
    private readonly shared: ReadCache,
    private readonly kind: string,
    private readonly bytesOf: (value: V) => number,
  ) {}

  private key(projectId: number): string {
    let key = this.keys.get(projectId);
    if (key === undefined) {
      key = `${this.kind}:${projectId}`;
      this.keys.set(projectId, key);
    }
    return key;
  }

  /** The project's value at `version`, made by `create` when missing or stale; most recently used. */
  async get(projectId: number, version: number, create: () => V | Promise<V>): Promise<V> {
    const hit = this.held(projectId, version);
    if (hit !== undefined) return hit;
    const value = await create();
    // another request may have made it meanwhile: the last one made is kept
    this.keep(projectId, version, value);
    return value;
  }

  /** The project's value if it is held at `version` (most recently used), without making it. */
  held(projectId: number, version: number): V | undefined {
    return this.shared.get<V>(this.key(projectId), version);
  }

  /** The project's value at whatever version it is held (a newer one may reuse parts of it). */
  peek(projectId: number): V | undefined {
    return this.shared.peek<V>(this.key(projectId));
  }

  /** Holds `value` as the project's at `version`. */
  keep(projectId: number, version: number, value: V): void {
    this.shared.set(this.key(projectId), version, value, this.bytesOf);
  }

  /** Measures the project's value again after it grew in place. */
  grown(projectId: number): void {
    this.shared.remeasure(this.key(projectId));
  }
}
