import type { QueryClient } from '@tanstack/react-query';
import { developersQueryOptions, projectsQueryOptions } from '../../api/catalog';
import { pickDeveloperId, pickStats, readFilters } from '../../lib/dashboard-url';
import { todayLocal } from '../../lib/dates';
import { projectStatsQueryOptions } from './api';

/**
 * On a first load of the dashboard, asks for what it will show (developers → projects → stats) while
 * the browser is still loading the dashboard's code and ECharts, under the same query keys the page uses:
 * the page then finds the data ready or in flight. Errors are left to the page, which asks again.
 */
export async function prefetchDashboard(client: QueryClient, params: URLSearchParams): Promise<void> {
  const filters = readFilters(params);
  try {
    const developerId = pickDeveloperId(filters, await client.ensureQueryData(developersQueryOptions()));
    if (developerId === null) return;
    const projects = await client.ensureQueryData(projectsQueryOptions(developerId));
    const { statsRequest } = pickStats(filters, projects, todayLocal());
    if (!statsRequest) return;
    // the blocks under the charts are asked when they come into view (DESIGN §12.2), not here
    await client.prefetchQuery(projectStatsQueryOptions(statsRequest));
  } catch {
    // the page shows the error when it asks itself
  }
}
