import type { StatsColumns, StatsRequest, StatsStatus } from '@cena-metra/contract';

/** The summary's day: the last day with data in the range of a stats response. */
export function summaryDayOf(stats: StatsColumns): string | null {
  const counts = stats.flatsCountList[0]?.counts;
  if (!counts) return null;
  for (let i = counts.length - 1; i >= 0; i--) if (counts[i] !== null) return stats.dates[i];
  return null;
}

/**
 * What the blocks under the charts ask for the charts' request: «Темп продаж», the distribution on the
 * range's last day and the summary table's pace on the summary's day (known once the stats are). The
 * page and its first-load prefetch both ask through this, so they share the query keys.
 */
export function blockRequests(
  request: StatsRequest,
  stats: StatsColumns | undefined,
): {
  pace: { projectId: number; from: string; to: string; status: StatsStatus };
  distribution: { projectId: number; date: string; status: StatsStatus };
  paceRows: { projectId: number; date: string; status: StatsStatus } | null;
} {
  const { projectId, from, to } = request;
  const status = request.status ?? 'ALL';
  const day = stats ? summaryDayOf(stats) : null;
  return {
    pace: { projectId, from, to, status },
    distribution: { projectId, date: to, status },
    paceRows: day ? { projectId, date: day, status } : null,
  };
}
