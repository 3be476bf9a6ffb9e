import { gunzipSync } from 'node:zlib';
import type { StatsStatus } from '@cena-metra/contract';
import type { CubeCell } from '../analytics/cube.js';
import { dayCounts, GROUPS, groupPoint } from '../analytics/stats.js';
import type { Db } from '../db/driver.js';
import { bytes, monthOf } from '../db/kept.js';
import { decodeSeriesMonth, encodeSeriesMonth, isLaidOut, SERIES_SEPARATOR } from '../db/kept-series.js';
import { fromDay } from '../lib/days.js';

/** A day's series under a status, as text (db/kept-series.ts): made once by the import that changes it. */
export function renderSeriesDay(cells: CubeCell[], status: StatsStatus): string {
  const parts = GROUPS.map((g) => {
    const point = groupPoint(cells, g, status);
    return point ? JSON.stringify(point).slice(1) : '';
  });
  parts.push(dayCounts(cells, status).join(','));
  return parts.join(SERIES_SEPARATOR);
}

/**
 * Writes the series of the recomputed snapshot days (replacing what they had): each month they fall in is
 * read, merged and written again whole (db/kept.ts), so one new day costs its month, not the history.
 */
export async function saveSeries(db: Db, projectId: number, cubes: Map<number, CubeCell[]>): Promise<void> {
  const months = new Map<number, number[]>();
  for (const day of cubes.keys()) {
    const m = monthOf(day);
    const list = months.get(m);
    if (list) list.push(day);
    else months.set(m, [day]);
  }
  const keys = [...months.keys()];
  for (let offset = 0; offset < keys.length; offset += MONTH_CHUNK) {
    const chunk = keys.slice(offset, offset + MONTH_CHUNK);
    const stored = await db.query<{
      m: number;
      days: number[];
      series_all: string;
      series_available: string;
    }>(
      `select month - date '1970-01-01' as m, days, series_all, series_available
       from series_month
       where project_id = $1 and month = any($2::date[])`,
      [projectId, chunk.map(fromDay)],
    );
    const before = new Map(stored.map((r) => [r.m, r]));
    const rows = chunk.map((m) => {
      // the month's days as kept, the recomputed ones replaced or added
      const texts = new Map<number, [string, string]>();
      const old = before.get(m);
      if (old) {
        const all = decodeSeriesMonth(bytes(old.series_all), old.days);
        const available = decodeSeriesMonth(bytes(old.series_available), old.days);
        old.days.forEach((d, i) => texts.set(d, [all[i], available[i]]));
      }
      for (const d of months.get(m)!) {
        const cells = cubes.get(d)!;
        texts.set(d, [renderSeriesDay(cells, 'ALL'), renderSeriesDay(cells, 'AVAILABLE')]);
      }
      const days = [...texts.keys()].sort((a, b) => a - b);
      return {
        m,
        days: `{${days.join(',')}}`,
        all: encodeSeriesMonth(
          days,
          days.map((d) => texts.get(d)![0]),
        ).toString('base64'),
        available: encodeSeriesMonth(
          days,
          days.map((d) => texts.get(d)![1]),
        ).toString('base64'),
      };
    });
    await db.query(
      `insert into series_month (project_id, month, days, series_all, series_available)
       select $1, t.month, t.days::int[], t.a, t.b
       from unnest($2::date[], $3::text[], $4::text[], $5::text[]) as t(month, days, a, b)
       on conflict (project_id, month) do update set days = excluded.days,
         series_all = excluded.series_all, series_available = excluded.series_available`,
      [
        projectId,
        rows.map((r) => fromDay(r.m)),
        rows.map((r) => r.days),
        rows.map((r) => r.all),
        rows.map((r) => r.available),
      ],
    );
  }
}

/** months one statement reads and writes */
const MONTH_CHUNK = 24;

/**
 * Lays out again the months kept before migration 23 (the days' texts): each month is read, laid out as
 * sent (db/kept-series.ts) and written back; nothing is recomputed. A month already laid out is left.
 */
export async function layOutKeptSeries(db: Db, onProgress?: (done: number, total: number) => void) {
  const projects = await db.query<{ id: number }>(
    'select distinct project_id as id from series_month order by 1',
  );
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => {
      const rows = await tx.query<{
        month: string;
        days: number[];
        series_all: string;
        series_available: string;
      }>(
        `select month::text, days, series_all, series_available from series_month
         where project_id = $1 for update`,
        [id],
      );
      for (const r of rows) {
        const all = gunzipSync(bytes(r.series_all));
        const available = gunzipSync(bytes(r.series_available));
        if (isLaidOut(all) && isLaidOut(available)) continue;
        const laidOut = (inflated: Buffer) =>
          encodeSeriesMonth(r.days, decodeSeriesMonth(inflated, r.days, inflated)).toString('base64');
        await tx.query(
          'update series_month set series_all = $3, series_available = $4 where project_id = $1 and month = $2::date',
          [id, r.month, laidOut(all), laidOut(available)],
        );
      }
    });
    onProgress?.(i + 1, projects.length);
  }
}
