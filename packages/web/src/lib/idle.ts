/**
 * Runs `work` once the browser is idle (at most `timeout` ms later); returns its cancel. Where the browser has
 * no `requestIdleCallback` (Safari, Telegram's iOS web view) it runs after `timeout` ms.
 */
export function whenIdle(work: () => void, timeout: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, timeout);
  return () => clearTimeout(timer);
}
