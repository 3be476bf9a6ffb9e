import type { Db } from '../driver.js';

// A project's row as the acts lock and version it (DESIGN §11.1: `data_version` moves with every change of
// what its pages show; ETags and caches follow it).

/** Projects with a snapshot on or after `fromDate` (all when null), by id. */
export async function projectsSince(
  db: Db,
  fromDate: string | null,
): Promise<{ id: number; name: string }[]> {
  return db.query<{ id: number; name: string }>(
    `select id, name from project where $1::date is null or last_snapshot_date >= $1::date order by id`,
    [fromDate],
  );
}

/** Locks a project's row for the transaction (an import or a rebuild of it waits). */
export async function lockProject(tx: Db, id: number): Promise<void> {
  await tx.query('select id from project where id = $1 for update', [id]);
}

export async function bumpDataVersion(tx: Db, id: number): Promise<void> {
  await tx.query('update project set data_version = data_version + 1 where id = $1', [id]);
}

/** The data of every project as one mark: their count and the sum of their versions (the market's ETag). */
export async function marketDataMark(db: Db): Promise<string> {
  const [row] = await db.query<{ n: number; v: number }>(
    'select count(*)::int as n, coalesce(sum(data_version + place_version), 0)::bigint as v from project',
  );
  return `${row.n}.${row.v}`;
}
