import type { StatsStatus } from '@cena-metra/contract';
import type { Db } from '../driver.js';
import { seriesColumn } from '../kept.js';

// The kept stats series (DESIGN §11.1, db/kept-series.ts): a row per project and month, each status's days
// laid out as sent, base64 of the gzipped bytes.

/** A month of series as stored (`m`: its first day in days since 1970-01-01). */
export interface SeriesMonthRow {
  m: number;
  days: number[];
  series_all: string;
  series_available: string;
}

export async function seriesMonths(db: Db, projectId: number, months: string[]): Promise<SeriesMonthRow[]> {
  return db.query<SeriesMonthRow>(
    `select month - date '1970-01-01' as m, days, series_all, series_available
     from series_month
     where project_id = $1 and month = any($2::date[])`,
    [projectId, months],
  );
}

/** Writes months whole (a month kept is replaced). */
export async function saveSeriesMonths(
  db: Db,
  projectId: number,
  rows: {
    month: string;
    days: string;
    all: string;
    available: string;
    columnsAll: string;
    columnsAvailable: string;
  }[],
): Promise<void> {
  await db.query(
    `insert into series_month (project_id, month, days, series_all, series_available, columns_all,
       columns_available)
     select $1, t.month, t.days::int[], t.a, t.b, t.ca, t.cb
     from unnest($2::date[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       as t(month, days, a, b, ca, cb)
     on conflict (project_id, month) do update set days = excluded.days,
       series_all = excluded.series_all, series_available = excluded.series_available,
       columns_all = excluded.columns_all, columns_available = excluded.columns_available`,
    [
      projectId,
      rows.map((r) => r.month),
      rows.map((r) => r.days),
      rows.map((r) => r.all),
      rows.map((r) => r.available),
      rows.map((r) => r.columnsAll),
      rows.map((r) => r.columnsAvailable),
    ],
  );
}

/**
 * A project's months in columns under a status, in order: their days and the status's columns (base64 of
 * gzipped JSON, db/kept-columns.ts); a month kept before migration 26 has none yet and gives its series
 * text instead (the reader makes its columns from it).
 */
export async function seriesColumnsOfStatus(
  db: Db,
  projectId: number,
  status: StatsStatus,
): Promise<{ days: number[]; columns: string | null; series: string | null }[]> {
  const columns = status === 'ALL' ? 'columns_all' : 'columns_available';
  return db.query(
    `select days, ${columns} as columns, case when ${columns} is null then ${seriesColumn(status)} end as series
     from series_month where project_id = $1 order by month`,
    [projectId],
  );
}

export async function projectsWithSeries(db: Db): Promise<{ id: number }[]> {
  return db.query<{ id: number }>('select distinct project_id as id from series_month order by 1');
}

/**
 * A project's months, locked for the transaction (`month` as text); `withoutColumns`: only those kept before
 * their columns were (migration 26).
 */
export async function seriesMonthsForUpdate(
  tx: Db,
  projectId: number,
  withoutColumns = false,
): Promise<{ month: string; days: number[]; series_all: string; series_available: string }[]> {
  return tx.query(
    `select month::text, days, series_all, series_available from series_month
     where project_id = $1 ${withoutColumns ? 'and (columns_all is null or columns_available is null)' : ''}
     for update`,
    [projectId],
  );
}

/** Writes a month's two statuses of one form again: the series as sent, or their columns. */
export async function updateSeriesMonth(
  tx: Db,
  projectId: number,
  month: string,
  form: 'series' | 'columns',
  all: string,
  available: string,
): Promise<void> {
  await tx.query(
    `update series_month set ${form}_all = $3, ${form}_available = $4
     where project_id = $1 and month = $2::date`,
    [projectId, month, all, available],
  );
}

/** A project's months of series under a status, in order: their days and the status's column (base64). */
export async function seriesOfStatus(
  db: Db,
  projectId: number,
  status: StatsStatus,
): Promise<{ days: number[]; body: string }[]> {
  return db.query<{ days: number[]; body: string }>(
    `select days, ${seriesColumn(status)} as body from series_month where project_id = $1 order by month`,
    [projectId],
  );
}
