import { describe, expect, it } from 'vitest';
import { holdLoop } from './hold-loop.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('holdLoop', () => {
  it('holds a timer while the work is pending and lets it go after', async () => {
    const before = timers();
    let finish = (_v: number) => {};
    const held = holdLoop(new Promise<number>((done) => (finish = done)));
    expect(timers()).toBe(before + 1);
    finish(7);
    await expect(held).resolves.toBe(7);
    expect(timers()).toBe(before);
  });

  it('lets the timer go when the work fails, and passes the error on', async () => {
    const before = timers();
    await expect(holdLoop(Promise.reject(new Error('нет')))).rejects.toThrow('нет');
    expect(timers()).toBe(before);
  });
});
