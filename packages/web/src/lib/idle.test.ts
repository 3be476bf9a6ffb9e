import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './idle';

describe('whenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks the browser for its idle time, at most `timeout` later, and cancels it', () => {
    const cancelled: number[] = [];
    const asked: { timeout?: number }[] = [];
    const idle = vi.fn((work: () => void, options: { timeout?: number }) => {
      asked.push(options);
      work();
      return 7;
    });
    vi.stubGlobal('window', {
      requestIdleCallback: idle,
      cancelIdleCallback: (h: number) => cancelled.push(h),
    });
    const work = vi.fn();
    const cancel = whenIdle(work, 3_000);
    expect(work).toHaveBeenCalledTimes(1);
    expect(asked).toEqual([{ timeout: 3_000 }]);
    cancel();
    expect(cancelled).toEqual([7]);
  });

  it('without requestIdleCallback (Safari) runs after the timeout, unless cancelled first', () => {
    vi.useFakeTimers();
    vi.stubGlobal('window', {});
    const work = vi.fn();
    whenIdle(work, 1_000);
    vi.advanceTimersByTime(999);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    const other = vi.fn();
    const cancel = whenIdle(other, 1_000);
    cancel();
    vi.advanceTimersByTime(2_000);
    expect(other).not.toHaveBeenCalled();
  });
});
