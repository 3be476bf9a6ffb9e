import type { Db } from '../driver.js';

// A project's place as stored (DESIGN §11.2): what the sources said with their dates, the hand edit, and the
// place shown, with `place_version` (the market's data version) moving only when the place shown does.

/** The place shown, as the columns hold it. */
export interface ShownPlace {
  region: string | null;
  city: string | null;
  district: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  stations: unknown[];
}

export async function saveProjectPlace(
  db: Db,
  projectId: number,
  shown: ShownPlace,
  source: object,
  edit: object,
  moved: boolean,
): Promise<void> {
  await db.query(
    `update project set region = $2, city = $3, district = $4, address = $5, latitude = $6, longitude = $7,
       stations = $8::jsonb, place_source = $9::jsonb, place_edit = $10::jsonb,
       place_version = place_version + $11
     where id = $1`,
    [
      projectId,
      shown.region,
      shown.city,
      shown.district,
      shown.address,
      shown.latitude,
      shown.longitude,
      JSON.stringify(shown.stations),
      JSON.stringify(source),
      JSON.stringify(edit),
      moved ? 1 : 0,
    ],
  );
}

/** What the sources said of a project's place and its hand edit (`forUpdate` locks the row); null: no project. */
export async function projectPlaceRow<S extends object, E extends object>(
  db: Db,
  projectId: number,
  forUpdate = false,
): Promise<{ source: S; edit: E } | null> {
  const [row] = await db.query<{ place_source: S | null; place_edit: E | null }>(
    `select place_source, place_edit from project where id = $1${forUpdate ? ' for update' : ''}`,
    [projectId],
  );
  return row ? { source: row.place_source ?? ({} as S), edit: row.place_edit ?? ({} as E) } : null;
}
