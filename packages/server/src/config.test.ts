import { describe, expect, it } from 'vitest';
import { loadConfig, replicaUrls } from './config.js';

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
    [{ DATABASE_URL: 'postgresql://a/b', DATABASE_READ_URL: 'mysql://r/b' }, 'настройка DATABASE_READ_URL: '],
    [{ DATABASE_READ_URL: 'postgresql://r/b' }, 'настройка DATABASE_READ_URL: '],
    [{ DATABASE_URL: 'postgresql://a/b', MAX_REPLICA_LAG_S: '-1' }, 'настройка MAX_REPLICA_LAG_S: '],
    [{ DATABASE_URL: 'postgresql://a/b', REPLICA_TIMEOUT_S: '0' }, 'настройка REPLICA_TIMEOUT_S: '],
    [{ CACHE_MB: 'много' }, 'настройка CACHE_MB: '],
    [{ CACHE_MB: '1' }, 'настройка CACHE_MB: '],
  ])('%j is refused naming the variable', (env, message) => {
    expect(() => loadConfig({}, env)).toThrow(message);
  });

  it('replicas: comma-separated URLs, the lag limit 30 s by default', () => {
    const c = loadConfig(
      {},
      { DATABASE_URL: 'postgresql://p/db', DATABASE_READ_URL: ' postgresql://r1/db, postgres://r2/db ,' },
    );
    expect(replicaUrls(c)).toEqual(['postgresql://r1/db', 'postgres://r2/db']);
    expect([c.maxReplicaLagS, c.replicaTimeoutS, c.cacheMb]).toEqual([30, 10, 256]);
    expect(replicaUrls(loadConfig({}, {}))).toEqual([]);
  });
});
