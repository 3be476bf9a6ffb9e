/**
 * Work a user is likely to ask for next (the other status of the charts just drawn), done while the server
 * is idle so that it never stands in a request's way. One task at a time, the newest first; a task already
 * waiting under the same key is not added twice, and past `max` waiting the oldest are dropped. A task that
 * fails is reported and forgotten: it was only a guess.
 */
export class IdleWork {
  private readonly waiting = new Map<string, () => Promise<unknown>>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    /** resolves when no request is in flight and none came for a moment */
    private readonly idle: () => Promise<void>,
    private readonly onError: (error: unknown, key: string) => void,
    private readonly max = 8,
  ) {}

  add(key: string, task: () => Promise<unknown>): void {
    if (this.stopped) return;
    // the newest last: re-adding a key moves it to the front of the queue
    this.waiting.delete(key);
    this.waiting.set(key, task);
    while (this.waiting.size > this.max) this.waiting.delete(this.waiting.keys().next().value!);
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once nothing is waiting or running (tests, and closing). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Drops what waits; a task under way finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    await this.settled();
  }

  get size(): number {
    return this.waiting.size;
  }

  private async run(): Promise<void> {
    while (this.waiting.size > 0) {
      await this.idle();
      const key = [...this.waiting.keys()].pop();
      if (key === undefined) return;
      const task = this.waiting.get(key)!;
      this.waiting.delete(key);
      try {
        await task();
      } catch (error) {
        this.onError(error, key);
      }
    }
  }
}
