/**
 * Keeps the event loop alive while `work` is pending (a command of the CLI: the server's start until it
 * listens, an import, a rebuild).
 *
 * Whenever Node's loop has nothing left to wait on, Node drains V8's background tasks — and waits for them:
 * the WebAssembly tier-up of PGlite's hot functions, the collector's concurrent marking. PGlite's queries
 * are promises without a handle, so a command awaiting only them let the loop run empty and its thread
 * stood still until those tasks on other threads were done: ~300 ms of a server's start, idle in the
 * profile (docs/performance.md, session 34). A ref'd timer keeps the loop alive; the tasks then run beside
 * the command instead of in its way.
 */
export async function holdLoop<T>(work: Promise<T>): Promise<T> {
  // never fires (the longest delay a timer takes is 2^31 − 1 ms)
  const timer = setInterval(() => {}, 2 ** 30);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
