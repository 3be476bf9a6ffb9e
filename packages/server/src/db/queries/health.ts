import type { Db } from '../driver.js';
import { isDemoData } from './meta.js';

/** The market's latest snapshot date and whether the data are the demo's. */
export async function getDataState(db: Db): Promise<{ lastSnapshotDate: string | null; demo: boolean }> {
  const [row] = await db.query<{ last: string | null }>(
    'select max(last_snapshot_date)::text as last from project',
  );
  return { lastSnapshotDate: row?.last ?? null, demo: await isDemoData(db) };
}
