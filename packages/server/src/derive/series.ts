import type { StatsStatus } from '@cena-metra/contract';
import type { CubeCell } from '../analytics/cube.js';
import { dayCounts, GROUPS, groupPoint } from '../analytics/stats.js';
import type { Db } from '../db/driver.js';
import { fromDay } from '../lib/days.js';

/**
 * The stats series of a snapshot day as it is kept (`series_day`) and sent: per status, each room group's
 * point as the JSON that follows its date in the response (`"minMeterPrice":…}`, empty for a group without
 * flats) and the day's counts, `\x01` between them. JSON escapes every control character, so the separator
 * never occurs inside a part. Made once by the import that changes the day; a request only stitches.
 */
const SEP = '\x01';

/** A day's series under a status, in its kept form. */
export function renderSeriesDay(cells: CubeCell[], status: StatsStatus): string {
  const parts = GROUPS.map((g) => {
    const point = groupPoint(cells, g, status);
    return point ? JSON.stringify(point).slice(1) : '';
  });
  parts.push(dayCounts(cells, status).join(','));
  return parts.join(SEP);
}

/** A kept day read back: the groups' point fragments (null: no flats) and the counts' JSON endings. */
export interface SeriesDay {
  groups: (Buffer | null)[];
  counts: string[];
  /** bytes the fragments hold */
  bytes: number;
}

export function parseSeriesDay(text: string): SeriesDay {
  const parts = text.split(SEP);
  if (parts.length !== GROUPS.length + 1) throw new Error('series_day: malformed day');
  let bytes = 0;
  const groups = parts.slice(0, GROUPS.length).map((p) => {
    if (!p) return null;
    const b = Buffer.from(p);
    bytes += b.length;
    return b;
  });
  const counts = parts[GROUPS.length].split(',').map((c) => `"count":${c}}`);
  return { groups, counts, bytes };
}

/** The kept column of a status. */
export function seriesColumn(status: StatsStatus): 'series_all' | 'series_available' {
  return status === 'ALL' ? 'series_all' : 'series_available';
}

function flatsCount(cells: CubeCell[]): number {
  let count = 0;
  for (const c of cells) count += c.count;
  return count;
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
        chunk.map((d) => flatsCount(cubes.get(d)!)),
        chunk.map((d) => renderSeriesDay(cubes.get(d)!, 'ALL')),
        chunk.map((d) => renderSeriesDay(cubes.get(d)!, 'AVAILABLE')),
      ],
    );
  }
}
