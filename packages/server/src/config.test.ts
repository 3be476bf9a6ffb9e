import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults, including the second stage’s settings', () => {
    const c = loadConfig({}, {});
    expect([c.maxCarryDays, c.removalGrace, c.httpIdleTimeoutSeconds, c.httpHeadersTimeoutSeconds]).toEqual([
      31, 2, 60, 20,
    ]);
  });

  it.each([
    [{ MAX_CARRY_DAYS: '0' }, 'настройка MAX_CARRY_DAYS: '],
    [{ MAX_CARRY_DAYS: 'месяц' }, 'настройка MAX_CARRY_DAYS: '],
    [{ HTTP_IDLE_TIMEOUT_SECONDS: '-5' }, 'настройка HTTP_IDLE_TIMEOUT_SECONDS: '],
    [{ REMOVAL_GRACE: '99' }, 'настройка REMOVAL_GRACE: '],
  ])('%j is refused naming the variable', (env, message) => {
    expect(() => loadConfig({}, env)).toThrow(message);
  });
});
