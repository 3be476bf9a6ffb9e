import type { StatsStatus } from '@cena-metra/contract';
import type { CubeCell } from '../analytics/cube.js';
import { countLabels, dayCounts, GROUPS, groupPoint } from '../analytics/stats.js';
import type { Db } from '../db/driver.js';
import { bytes, inflate, monthOf } from '../db/kept.js';
import {
  columnsOfDays,
  columnsOfTexts,
  encodeColumnsMonth,
  type SeriesDay,
  seriesDayOfText,
} from '../db/kept-columns.js';
import { decodeSeriesMonth, encodeSeriesMonth, isLaidOut, SERIES_SEPARATOR } from '../db/kept-series.js';
import {
  projectsWithSeries,
  saveSeriesMonths,
  seriesMonths,
  seriesMonthsForUpdate,
  updateSeriesMonth,
} from '../db/queries/kept-stats.js';
import { fromDay } from '../lib/days.js';

/** A day's series under a status: each room group's point and the day's counts. */
export function seriesDayOf(cells: CubeCell[], status: StatsStatus): SeriesDay {
  return { points: GROUPS.map((g) => groupPoint(cells, g, status)), counts: dayCounts(cells, status) };
}

/** A day's series as text (db/kept-series.ts): made once by the import that changes it. */
export function seriesDayText(day: SeriesDay): string {
  const parts = day.points.map((point) => (point ? JSON.stringify(point).slice(1) : ''));
  parts.push(day.counts.join(','));
  return parts.join(SERIES_SEPARATOR);
}

/** A day's series under a status, as text. */
export function renderSeriesDay(cells: CubeCell[], status: StatsStatus): string {
  return seriesDayText(seriesDayOf(cells, status));
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
    const stored = await seriesMonths(db, projectId, chunk.map(fromDay));
    const before = new Map(stored.map((r) => [r.m, r]));
    const rows = chunk.map((m) => {
      // the month's days as kept (their texts read back), the recomputed ones replaced or added
      const kept = new Map<number, { texts: [string, string]; days: [SeriesDay, SeriesDay] }>();
      const old = before.get(m);
      if (old) {
        const all = decodeSeriesMonth(bytes(old.series_all), old.days);
        const available = decodeSeriesMonth(bytes(old.series_available), old.days);
        old.days.forEach((d, i) =>
          kept.set(d, {
            texts: [all[i], available[i]],
            days: [seriesDayOfText(all[i], GROUPS.length), seriesDayOfText(available[i], GROUPS.length)],
          }),
        );
      }
      for (const d of months.get(m)!) {
        const cells = cubes.get(d)!;
        const all = seriesDayOf(cells, 'ALL');
        const available = seriesDayOf(cells, 'AVAILABLE');
        kept.set(d, { texts: [seriesDayText(all), seriesDayText(available)], days: [all, available] });
      }
      const days = [...kept.keys()].sort((a, b) => a - b);
      const ofStatus = (i: 0 | 1, status: StatsStatus) =>
        encodeColumnsMonth(
          columnsOfDays(
            days.map((d) => kept.get(d)!.days[i]),
            GROUPS.length,
            countLabels(status).length,
          ),
        );
      return {
        m,
        days: `{${days.join(',')}}`,
        columnsAll: ofStatus(0, 'ALL'),
        columnsAvailable: ofStatus(1, 'AVAILABLE'),
        all: encodeSeriesMonth(
          days,
          days.map((d) => kept.get(d)!.texts[0]),
        ).toString('base64'),
        available: encodeSeriesMonth(
          days,
          days.map((d) => kept.get(d)!.texts[1]),
        ).toString('base64'),
      };
    });
    await saveSeriesMonths(
      db,
      projectId,
      rows.map((r) => ({ ...r, month: fromDay(r.m) })),
    );
  }
}

/**
 * Keeps the columns (db/kept-columns.ts) of the months kept before migration 26, from their days' texts as
 * kept: nothing is recomputed. A month that has them is left.
 */
export async function keepSeriesColumns(db: Db, onProgress?: (done: number, total: number) => void) {
  const projects = await projectsWithSeries(db);
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => {
      for (const r of await seriesMonthsForUpdate(tx, id, true)) {
        const ofStatus = (body: string, status: StatsStatus) =>
          encodeColumnsMonth(
            columnsOfTexts(decodeSeriesMonth(bytes(body), r.days), GROUPS.length, countLabels(status).length),
          );
        await updateSeriesMonth(
          tx,
          id,
          r.month,
          'columns',
          ofStatus(r.series_all, 'ALL'),
          ofStatus(r.series_available, 'AVAILABLE'),
        );
      }
    });
    onProgress?.(i + 1, projects.length);
  }
}

/** months one statement reads and writes */
const MONTH_CHUNK = 24;

/**
 * Lays out again the months kept before migration 23 (the days' texts): each month is read, laid out as
 * sent (db/kept-series.ts) and written back; nothing is recomputed. A month already laid out is left.
 */
export async function layOutKeptSeries(db: Db, onProgress?: (done: number, total: number) => void) {
  const projects = await projectsWithSeries(db);
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => {
      const rows = await seriesMonthsForUpdate(tx, id);
      for (const r of rows) {
        const all = inflate(bytes(r.series_all));
        const available = inflate(bytes(r.series_available));
        if (isLaidOut(all) && isLaidOut(available)) continue;
        const laidOut = (inflated: Buffer) =>
          encodeSeriesMonth(r.days, decodeSeriesMonth(inflated, r.days, inflated)).toString('base64');
        await updateSeriesMonth(tx, id, r.month, 'series', laidOut(all), laidOut(available));
      }
    });
    onProgress?.(i + 1, projects.length);
  }
}
