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

export async function projectExists(db: Db, id: number): Promise<boolean> {
  return (await db.query('select 1 from project where id = $1', [id])).length > 0;
}

export async function developerExists(db: Db, id: number): Promise<boolean> {
  return (await db.query('select 1 from developer where id = $1', [id])).length > 0;
}

/** A project with its developer and data span. */
export interface ProjectSpan {
  id: number;
  name: string;
  developer_id: number;
  developer_name: string;
  first_snapshot_date: string | null;
  last_snapshot_date: string | null;
}

/** Projects of a developer, one project, or all (null: any), by developer and project name. */
export async function projectSpans(
  db: Db,
  developerId: number | null,
  projectId: number | null,
): Promise<ProjectSpan[]> {
  return db.query<ProjectSpan>(
    `select p.id, p.name, p.developer_id, d.name as developer_name,
            p.first_snapshot_date, p.last_snapshot_date
     from project p join developer d on d.id = p.developer_id
     where ($1::int is null or p.developer_id = $1) and ($2::int is null or p.id = $2)
     order by lower(d.name), lower(p.name), p.id`,
    [developerId, projectId],
  );
}

/** The projects with data as one mark (count and versions): the market's list is read again when it moves. */
export async function listedProjectsMark(db: Db): Promise<string> {
  const [mark] = await db.query<{ n: number; v: number | string }>(
    `select count(*)::int as n, coalesce(sum(data_version + place_version + class_version), 0)::bigint as v
     from project where last_snapshot_date is not null`,
  );
  return `${mark.n}:${mark.v}`;
}

/** A project with data as the market lists it: its developer, span and place columns. */
export interface ListedProjectRow extends Omit<Place, 'stations'> {
  id: number;
  name: string;
  data_version: number;
  developer_id: number;
  developer_name: string;
  hand_class: string | null;
  registry_class: string | null;
  first: string;
  last: string;
  /** the average ppm of its latest list (its class by price) */
  last_ppm: number | null;
  stations: unknown;
}

export async function listedProjectRows(db: Db): Promise<ListedProjectRow[]> {
  return db.query<ListedProjectRow>(
    `select p.id, p.name, p.data_version, p.developer_id, d.name as developer_name, p.hand_class,
       p.registry_class, p.first_snapshot_date as first, p.last_snapshot_date as last,
       p.region, p.city, p.district, p.address, p.latitude, p.longitude, p.stations,
       sp.avg_meter_price as last_ppm
     from project p join developer d on d.id = p.developer_id
       left join summary_project sp on sp.date = p.last_snapshot_date and sp.project_id = p.id
     where p.last_snapshot_date is not null
     order by p.id`,
  );
}
