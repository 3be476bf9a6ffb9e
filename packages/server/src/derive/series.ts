import type { StatsStatus } from '@cena-metra/contract';
import type { CubeCell } from '../analytics/cube.js';
import { dayCounts, GROUPS, groupPoint } from '../analytics/stats.js';
import type { Db } from '../db/driver.js';
import { SERIES_SEPARATOR } from '../db/kept.js';
import { fromDay } from '../lib/days.js';
import { cubeTotals } from './timeline.js';

/** A day's series under a status, in its kept form (db/kept.ts): made once by the import that changes it. */
export function renderSeriesDay(cells: CubeCell[], status: StatsStatus): string {
  const parts = GROUPS.map((g) => {
    const point = groupPoint(cells, g, status);
    return point ? JSON.stringify(point).slice(1) : '';
  });
  parts.push(dayCounts(cells, status).join(','));
  return parts.join(SERIES_SEPARATOR);
}

/** Writes the series of the recomputed snapshot days (replacing what they had). */
export async function saveSeries(db: Db, projectId: number, cubes: Map<number, CubeCell[]>): Promise<void> {
  const days = [...cubes.keys()];
  for (let offset = 0; offset < days.length; offset += 2_000) {
    const chunk = days.slice(offset, offset + 2_000);
    await db.query(
      `insert into series_day (project_id, day, flats_count, series_all, series_available)
       select $1, * from unnest($2::date[], $3::int[], $4::text[], $5::text[])
       on conflict (project_id, day) do update set flats_count = excluded.flats_count,
         series_all = excluded.series_all, series_available = excluded.series_available`,
      [
        projectId,
        chunk.map(fromDay),
        chunk.map((d) => cubeTotals(cubes.get(d)!).count),
        chunk.map((d) => renderSeriesDay(cubes.get(d)!, 'ALL')),
        chunk.map((d) => renderSeriesDay(cubes.get(d)!, 'AVAILABLE')),
      ],
    );
  }
}
