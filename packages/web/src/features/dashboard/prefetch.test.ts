import type { StatsRequest } from '@cena-metra/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { todayLocal } from '../../lib/dates';
import { type KeptStats, prefetchDashboard, rememberedStats, rememberStats } from './prefetch';

/** A Storage of its own (the browser's localStorage is not in this environment). */
const storage = (): KeptStats & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
  };
};

const request: StatsRequest = { projectId: 7, from: '2024-03-01', to: '2026-11-29', status: 'ALL' };

describe('the stats a dashboard address asked for last', () => {
  it('are given back for the same address and day only', () => {
    const s = storage();
    expect(rememberedStats(s, 'demo\u0000project=7', '2026-11-29')).toBeNull();
    rememberStats(s, 'demo\u0000project=7', '2026-11-29', request);
    expect(rememberedStats(s, 'demo\u0000project=7', '2026-11-29')).toEqual(request);
    // another address, another user, another day (`to` is today's): nothing
    expect(rememberedStats(s, 'demo\u0000project=8', '2026-11-29')).toBeNull();
    expect(rememberedStats(s, 'anna\u0000project=7', '2026-11-29')).toBeNull();
    expect(rememberedStats(s, 'demo\u0000project=7', '2026-11-30')).toBeNull();
  });

  it('are nothing when what is kept is not readable, and a refused write is no error', () => {
    const s = storage();
    s.items.set('dashboardStats', '{not json');
    expect(rememberedStats(s, 'demo\u0000', '2026-11-29')).toBeNull();
    const full: KeptStats = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => rememberStats(full, 'demo\u0000', '2026-11-29', request)).not.toThrow();
  });

  it('are asked for at once by the next load, before the developers have answered', async () => {
    const s = storage();
    const params = new URLSearchParams('developer=3&project=7');
    const today = todayLocal();
    const guess = { ...request, to: today };
    rememberStats(s, `demo\u0000${params}`, today, guess);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const load = prefetchDashboard(client, params, 'demo', s);
    // synchronously, as the load starts: the remembered stats in flight under the page's key, the developers too
    const stats = client.getQueryCache().find({ queryKey: ['project-stats', guess] });
    expect(stats?.state.fetchStatus).toBe('fetching');
    await load;
    // another user's load of the same address asks for no stats of its own before the chain
    const other = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const second = prefetchDashboard(other, params, 'anna', s);
    expect(other.getQueryCache().find({ queryKey: ['project-stats'] })).toBeUndefined();
    await second;
  });
});
