/**
 * Values kept per project and its data version, least recently used out past a count or a byte budget
 * (the newest entry always stays). The one cache the read layer's engines share: stats series, active
 * flats, and the pace, index and chessboard engines to come. A stale version is replaced on `get`.
 */
export class ProjectCache<V> {
  private readonly entries = new Map<number, { version: number; value: V }>();

  constructor(
    private readonly maxProjects: number,
    private readonly maxBytes: number,
    private readonly bytesOf: (value: V) => number,
  ) {}

  /** The project's value at `version`, made by `create` when missing or stale; most recently used. */
  async get(projectId: number, version: number, create: () => V | Promise<V>): Promise<V> {
    const hit = this.entries.get(projectId);
    this.entries.delete(projectId);
    if (hit && hit.version === version) {
      this.entries.set(projectId, hit);
      return hit.value;
    }
    const value = await create();
    // another request may have made it meanwhile: the last one made is kept
    this.entries.set(projectId, { version, value });
    this.evict();
    return value;
  }

  /** Drops the least recently used entries past the count or the bytes (after a value grew). */
  evict(): void {
    while (this.entries.size > this.maxProjects) this.entries.delete(this.entries.keys().next().value!);
    let total = 0;
    for (const e of this.entries.values()) total += this.bytesOf(e.value);
    while (total > this.maxBytes && this.entries.size > 1) {
      const [oldest, e] = this.entries.entries().next().value!;
      total -= this.bytesOf(e.value);
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
