import type { QueryClient } from '@tanstack/react-query';
import { developersQueryOptions, projectsQueryOptions } from '../../api/catalog';
import { pickDeveloperId, pickStats, readFilters } from '../../lib/dashboard-url';
import { todayLocal } from '../../lib/dates';
import {
  distributionQueryOptions,
  paceRowsQueryOptions,
  projectPaceQueryOptions,
  projectStatsQueryOptions,
} from './api';
import { blockRequests } from './lib/blocks';

/**
 * On a first load of the dashboard, asks for what it will show (developers → projects → stats → the blocks under the charts) while
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
    // the blocks under the charts are asked as soon as the stats are here: the server answers them while
    // the browser draws the nine charts, instead of after
    const stats = await client.fetchQuery(projectStatsQueryOptions(statsRequest));
    const blocks = blockRequests(statsRequest, stats);
    await Promise.all([
      client.prefetchQuery(projectPaceQueryOptions(blocks.pace)),
      client.prefetchQuery(distributionQueryOptions(blocks.distribution)),
      blocks.paceRows && client.prefetchQuery(paceRowsQueryOptions(blocks.paceRows)),
    ]);
  } catch {
    // the page shows the error when it asks itself
  }
}
