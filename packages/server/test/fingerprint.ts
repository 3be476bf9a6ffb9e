import type { Db } from '../src/db/driver.js';

/** Everything a request could change, as one comparable value. */
export async function fingerprint(db: Db) {
  const tables = [
    'developer',
    'project',
    'snapshot',
    'flat',
    'flat_observation',
    'flat_segment',
    'pace_summary',
    'rank_month',
    'project_latest',
    'flat_event',
    'daily_summary',
    'summary_project',
    'app_user',
  ];
  const out: Record<string, unknown> = {};
  for (const t of tables)
    out[t] = (await db.query<{ n: number }>(`select count(*)::int as n from ${t}`))[0].n;
  // the kept series days, a month to a row
  out.series_days = (
    await db.query<{ n: number }>('select coalesce(sum(cardinality(days)), 0)::int as n from series_month')
  )[0].n;
  out.versions = await db.query('select id, data_version from project order by id');
  out.passwords = await db.query('select id, password_hash from app_user order by id');
  return out;
}
