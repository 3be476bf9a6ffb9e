import type { Developer, Place, PlacesResponse, Project, ProjectPlacesResponse } from '@cena-metra/contract';
import { NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';

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

/** Every project with data and its place (DESIGN §11.3), in id order. */
export async function getProjectPlaces(db: Db): Promise<ProjectPlacesResponse> {
  const rows = await db.query<Omit<Place, 'stations'> & { projectId: number; stations: unknown }>(
    `select id as "projectId", region, city, district, address, latitude, longitude, stations
     from project where last_snapshot_date is not null order by id`,
  );
  return {
    projects: rows.map((r) => ({
      ...r,
      stations: (typeof r.stations === 'string' ? JSON.parse(r.stations) : r.stations) as Place['stations'],
    })),
  };
}

/** The places of the projects with data (DESIGN §11.3), each list sorted as Russian readers expect. */
export async function getPlaces(db: Db): Promise<PlacesResponse> {
  const rows = await db.query<{
    region: string | null;
    city: string | null;
    district: string | null;
    stations: unknown;
  }>('select region, city, district, stations from project where last_snapshot_date is not null');
  const collator = new Intl.Collator('ru');
  const sorted = (values: Iterable<string | null | undefined>) =>
    [...new Set([...values].filter((v): v is string => !!v))].sort(collator.compare);
  const stations = rows.flatMap((r) =>
    ((typeof r.stations === 'string' ? JSON.parse(r.stations) : r.stations) as { name: string }[]).map(
      (s) => s.name,
    ),
  );
  return {
    regions: sorted(rows.map((r) => r.region)),
    cities: sorted(rows.map((r) => r.city)),
    districts: sorted(rows.map((r) => r.district)),
    stations: sorted(stations),
  };
}

/** How many projects the database holds (an empty one gets the demo at first start). */
export async function countProjects(db: Db): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>('select count(*)::int as count from project');
  return Number(count);
}
