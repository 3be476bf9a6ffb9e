import type { Developer, Project } from '@cena-metra/contract';
import type { Db } from '../../db/driver.js';
import { NotFoundError } from '../../lib/errors.js';

export async function getDevelopers(db: Db): Promise<Developer[]> {
  return db.query<Developer>('select id, name from developer order by lower(name), id');
}

/** A developer's projects; minFlatCreatedAt is the date of the project's first snapshot, lastSnapshotDate of its last. */
export async function getProjects(db: Db, developerId: number): Promise<Project[]> {
  const [dev] = await db.query('select id from developer where id = $1', [developerId]);
  if (!dev) throw new NotFoundError(`застройщик ${developerId} не найден`);
  return db.query<Project>(
    `select id, name, first_snapshot_date as "minFlatCreatedAt", last_snapshot_date as "lastSnapshotDate"
     from project
     where developer_id = $1 order by lower(name), id`,
    [developerId],
  );
}
