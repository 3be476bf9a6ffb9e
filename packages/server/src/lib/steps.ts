import { setImmediate } from 'node:timers/promises';

/**
 * Long work in steps. A sweep over the whole market (5,000 projects' summaries) is pure and synchronous —
 * ~0.3–1 s of a server's one thread; written as a generator that yields between its steps (a project, a
 * run of days), it is run to its end at once where nothing waits (`drain`: a command, a test) and in time
 * slices where requests do (`stepped`: a server's round, a request that computes a whole span) — the event
 * loop turned between slices, so no request waits for more than one slice of it.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to their end at once: the value, as a plain function would give it. */
export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** How long a slice of the thread runs before the event loop is turned (ms). */
export const SLICE_MS = 10;

/**
 * Time slices of the thread: `turn()` turns the event loop once a slice's time has passed since the last
 * turn, and costs a microtask otherwise (called between the steps of work).
 */
export class Slices {
  private last = performance.now();
  constructor(private readonly ms = SLICE_MS) {}
  async turn(): Promise<void> {
    if (performance.now() - this.last < this.ms) return;
    await setImmediate();
    this.last = performance.now();
  }
}

/** Runs the steps in slices of the thread (`Slices`): the same value as `drain`. */
export async function stepped<T>(steps: Steps<T>, slices = new Slices()): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slices.turn();
  }
}
