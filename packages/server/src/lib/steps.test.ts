import { describe, expect, it } from 'vitest';
import { drain, Slices, type Steps, stepped } from './steps.js';

/** Work of `n` steps that takes about `ms` each, and says when it began and ended. */
function* work(n: number, ms: number, log: string[]): Steps<number> {
  log.push('work began');
  for (let i = 0; i < n; i++) {
    const until = performance.now() + ms;
    while (performance.now() < until);
    yield;
  }
  log.push('work ended');
  return n;
}

describe('long work in steps', () => {
  it('drain runs every step at once: nothing else runs meanwhile', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('another task'));
    expect(drain(work(5, 2, log))).toBe(5);
    await new Promise((done) => setImmediate(done));
    expect(log).toEqual(['work began', 'work ended', 'another task']);
  });

  it('stepped turns the event loop once a slice has passed: a task queued meanwhile runs before the end', async () => {
    const log: string[] = [];
    const running = stepped(work(20, 2, log), new Slices(5));
    setImmediate(() => log.push('another task'));
    expect(await running).toBe(20);
    expect(log).toEqual(['work began', 'another task', 'work ended']);
  });

  it('stepped does not turn the loop before a slice is up: short work ends as drain would', async () => {
    const log: string[] = [];
    const running = stepped(work(3, 0, log), new Slices(10_000));
    setImmediate(() => log.push('another task'));
    expect(await running).toBe(3);
    await new Promise((done) => setImmediate(done));
    expect(log).toEqual(['work began', 'work ended', 'another task']);
  });
});
