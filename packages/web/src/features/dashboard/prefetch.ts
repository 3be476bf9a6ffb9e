import type { StatsRequest } from '@cena-metra/contract';
import type { QueryClient } from '@tanstack/react-query';
import { developersQueryOptions, projectsQueryOptions } from '../../api/catalog';
import { pickDeveloperId, pickStats, readFilters } from '../../lib/dashboard-url';
import { todayLocal } from '../../lib/dates';
import { projectStatsQueryOptions } from './api';

/**
 * On a first load of the dashboard, asks for what it will show (developers → projects → stats) while
 * the browser is still loading the dashboard's code and ECharts, under the same query keys the page uses:
 * the page then finds the data ready or in flight. Errors are left to the page, which asks again.
 *
 * The stats wait for the projects (their request starts on the project's first flat) and those for the
 * developers, on a main thread busy with the app's first render. A load of the same address by the same
 * user on the same day asks at once for the stats the last one asked for (kept in localStorage): the same
 * request, under the same key, whose answer the page then takes. When the projects say otherwise (a project's
 * first flat moved), the right one is asked for too and the page shows it.
 */
export async function prefetchDashboard(
  client: QueryClient,
  params: URLSearchParams,
  user: string,
  storage: KeptStats = localStorage,
): Promise<void> {
  const filters = readFilters(params);
  const today = todayLocal();
  const address = `${user}\u0000${params.toString()}`;
  const guess = rememberedStats(storage, address, today);
  if (guess) void client.prefetchQuery(projectStatsQueryOptions(guess));
  try {
    const developerId = pickDeveloperId(filters, await client.ensureQueryData(developersQueryOptions()));
    if (developerId === null) return;
    const projects = await client.ensureQueryData(projectsQueryOptions(developerId));
    const { statsRequest } = pickStats(filters, projects, today);
    if (!statsRequest) return;
    rememberStats(storage, address, today, statsRequest);
    // the blocks under the charts are asked when they come into view (DESIGN §12.2), not here
    await client.prefetchQuery(projectStatsQueryOptions(statsRequest));
  } catch {
    // the page shows the error when it asks itself
  }
}

/** Where the last stats are kept: localStorage, or what a test gives. */
export type KeptStats = Pick<Storage, 'getItem' | 'setItem'>;

const KEY = 'dashboardStats';

/** The stats the last load of this address asked for, when it was today (`to` is today's); else null. */
export function rememberedStats(storage: KeptStats, address: string, today: string): StatsRequest | null {
  try {
    const kept = JSON.parse(storage.getItem(KEY) ?? 'null') as {
      address: string;
      today: string;
      request: StatsRequest;
    } | null;
    return kept && kept.address === address && kept.today === today ? kept.request : null;
  } catch {
    // nothing kept, or not readable: the chain alone
    return null;
  }
}

/** Keeps the stats this load asked for (one address: the last one opened). */
export function rememberStats(storage: KeptStats, address: string, today: string, request: StatsRequest) {
  try {
    storage.setItem(KEY, JSON.stringify({ address, today, request }));
  } catch {
    // storage full or refused: the next load asks by the chain
  }
}
