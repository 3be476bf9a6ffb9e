import {
  CONTROL_CHARACTERS_MESSAGE,
  hasControlCharacters,
  PLACE_FIELDS,
  PLACE_LIMITS,
  type Place,
  type PlaceEditParsed,
  type PlaceField,
  STATION_KINDS,
  STATION_MODES,
  type Station,
} from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import { projectPlaceRow, saveProjectPlace } from '../db/queries/places.js';
import { cleanName } from './normalise.js';

/**
 * A project's place as one list gives it (DESIGN §11.3): only the fields the list has. The coordinates go
 * as a pair; stations as the list's whole set.
 */
export interface PlaceInput {
  region?: string;
  city?: string;
  district?: string;
  address?: string;
  coordinates?: { latitude: number; longitude: number };
  stations?: Station[];
}

type Warn = (field: string, message: string, value: unknown) => void;

const number = (v: unknown): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim().replace(',', '.'));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
};

/** A place's text: trimmed, without control characters, at most `max` characters; else warned and left out. */
function placeText(value: unknown, field: string, max: number, warn: Warn): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    warn(field, 'должно быть строкой', value);
    return undefined;
  }
  const t = cleanName(String(value));
  if (!t) return undefined;
  if (hasControlCharacters(t) || hasControlCharacters(String(value), true))
    warn(field, CONTROL_CHARACTERS_MESSAGE, value);
  else if (t.length > max) warn(field, `не длиннее ${max} символов`, value);
  else return t;
  return undefined;
}

/** Minutes to a station: a whole number 0…300 («7 мин» read as 7); else warned and left out. */
export function placeMinutes(value: unknown, field: string, warn: Warn): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n =
    typeof value === 'string' ? number(value.replace(/\s*(мин\.?|минут\w*|min)\s*$/i, '')) : number(value);
  if (n === undefined || !Number.isInteger(n) || n < 0 || n > PLACE_LIMITS.maxMinutes) {
    warn(field, `должно быть целым числом минут от 0 до ${PLACE_LIMITS.maxMinutes}`, value);
    return null;
  }
  return n;
}

/**
 * Reads a list's `location` (JSON snapshots; the readers of other formats build the same object). A bad
 * value is refused with its field named and the rest kept: the list is imported, the warning reported.
 */
export function readPlaceInput(raw: unknown, warn: Warn): PlaceInput | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warn('location', 'должно быть объектом', raw);
    return undefined;
  }
  const o = raw as Record<string, unknown>;
  const out: PlaceInput = {};
  const region = placeText(o.region, 'location.region', PLACE_LIMITS.maxText, warn);
  if (region) out.region = region;
  const city = placeText(o.city, 'location.city', PLACE_LIMITS.maxText, warn);
  if (city) out.city = city;
  const district = placeText(o.district, 'location.district', PLACE_LIMITS.maxText, warn);
  if (district) out.district = district;
  const address = placeText(o.address, 'location.address', PLACE_LIMITS.maxAddress, warn);
  if (address) out.address = address;
  const hasLat = o.latitude !== undefined && o.latitude !== null && o.latitude !== '';
  const hasLon = o.longitude !== undefined && o.longitude !== null && o.longitude !== '';
  if (hasLat || hasLon) {
    const latitude = number(o.latitude);
    const longitude = number(o.longitude);
    let ok = true;
    if (latitude === undefined || Math.abs(latitude) > PLACE_LIMITS.maxLatitude) {
      warn('location.latitude', 'должно быть числом от −90 до 90', o.latitude);
      ok = false;
    }
    if (longitude === undefined || Math.abs(longitude) > PLACE_LIMITS.maxLongitude) {
      warn('location.longitude', 'должно быть числом от −180 до 180', o.longitude);
      ok = false;
    }
    // 0, 0 is the Gulf of Guinea: a feed's empty coordinates, not a Russian new build
    if (ok && (latitude !== 0 || longitude !== 0))
      out.coordinates = { latitude: latitude!, longitude: longitude! };
  }
  if (o.stations !== undefined && o.stations !== null) {
    if (!Array.isArray(o.stations)) warn('location.stations', 'должно быть массивом станций', o.stations);
    else {
      const stations: Station[] = [];
      o.stations.forEach((s, i) => {
        const at = `location.stations[${i}]`;
        if (typeof s !== 'object' || s === null || Array.isArray(s))
          return warn(at, 'должно быть объектом', s);
        const st = s as Record<string, unknown>;
        const name = placeText(st.name, `${at}.name`, PLACE_LIMITS.maxText, warn);
        if (!name) return;
        let mode: Station['mode'] = null;
        if (st.mode !== undefined && st.mode !== null && st.mode !== '') {
          if ((STATION_MODES as readonly unknown[]).includes(st.mode)) mode = st.mode as Station['mode'];
          else warn(`${at}.mode`, `одно из ${STATION_MODES.join(', ')}`, st.mode);
        }
        const kind = (STATION_KINDS as readonly unknown[]).includes(st.kind)
          ? (st.kind as Station['kind'])
          : 'metro';
        if (stations.length < PLACE_LIMITS.maxStations && !stations.some((x) => x.name === name))
          stations.push({ name, minutes: placeMinutes(st.minutes, `${at}.minutes`, warn), mode, kind });
      });
      if (stations.length) out.stations = stations;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** What the sources said of a project's place: each field's value and the date of the list it came from. */
export type SourcePlace = Partial<Record<PlaceField, { value: unknown; date: string }>>;
type EditPlace = Partial<Record<PlaceField, unknown>>;

/** A list's place as the sources' place of its date. */
export function placeOfList(input: PlaceInput, date: string): SourcePlace {
  const out: SourcePlace = {};
  for (const [field, value] of Object.entries(input) as [PlaceField, unknown][])
    if (value !== undefined) out[field] = { value, date };
  return out;
}

/**
 * The sources' place with other lists' fields taken in: a field of a list dated on or after the one that
 * gave the kept value wins (the latest non-empty value); a list without a field never blanks it. Null
 * when nothing changes.
 */
export function mergeSourcePlace(stored: SourcePlace, incoming: SourcePlace): SourcePlace | null {
  let changed = false;
  const out: SourcePlace = { ...stored };
  for (const [field, given] of Object.entries(incoming) as [PlaceField, { value: unknown; date: string }][]) {
    const kept = out[field];
    if (kept && kept.date > given.date) continue;
    if (kept && kept.date === given.date && JSON.stringify(kept.value) === JSON.stringify(given.value))
      continue;
    out[field] = given;
    changed = true;
  }
  return changed ? out : null;
}

/** The place shown: each field's hand edit, else the sources'. */
export function effectivePlace(source: SourcePlace, edit: EditPlace): Place {
  const pick = (field: PlaceField) => (field in edit ? edit[field] : source[field]?.value) ?? null;
  const coordinates = pick('coordinates') as { latitude: number; longitude: number } | null;
  return {
    region: pick('region') as string | null,
    city: pick('city') as string | null,
    district: pick('district') as string | null,
    address: pick('address') as string | null,
    latitude: coordinates?.latitude ?? null,
    longitude: coordinates?.longitude ?? null,
    stations: (pick('stations') as Station[] | null) ?? [],
  };
}

/** The sources' place alone, as a `Place`. */
export const sourcesPlace = (source: SourcePlace): Place => effectivePlace(source, {});

/**
 * Writes a project's place: what the sources said (with their dates), the hand edit, and the place shown;
 * `place_version` (the market's data version, ETags) moves only when the place shown does.
 */
async function writePlace(
  db: Db,
  projectId: number,
  source: SourcePlace,
  edit: EditPlace,
  shown = true,
): Promise<void> {
  const p = effectivePlace(source, edit);
  await saveProjectPlace(db, projectId, p, source, edit, shown);
}

const storedPlace = (db: Db, projectId: number) => projectPlaceRow<SourcePlace, EditPlace>(db, projectId);

/** Takes lists' places into their project's (inside the lists' import transaction). */
export async function savePlaceFromLists(db: Db, projectId: number, incoming: SourcePlace) {
  const stored = await storedPlace(db, projectId);
  if (!stored) return;
  const merged = mergeSourcePlace(stored.source, incoming);
  if (!merged) return;
  // a newer list saying the same keeps its date (a later back-filled list must not win) but shows nothing new
  const before = JSON.stringify(effectivePlace(stored.source, stored.edit));
  const after = JSON.stringify(effectivePlace(merged, stored.edit));
  await writePlace(db, projectId, merged, stored.edit, before !== after);
}

/** A project's place as shown, the fields a hand edit holds and the sources' values; null: no project. */
export async function projectPlace(db: Db, projectId: number) {
  const stored = await storedPlace(db, projectId);
  if (!stored) return null;
  return {
    projectId,
    place: effectivePlace(stored.source, stored.edit),
    edited: PLACE_FIELDS.filter((f) => f in stored.edit),
    sources: sourcesPlace(stored.source),
  };
}

/** Applies a hand edit: each field given is held (null takes the hand value back). Null: no project. */
export async function editPlace(db: Db, projectId: number, change: PlaceEditParsed) {
  return db.transaction(async (tx) => {
    const row = await projectPlaceRow<SourcePlace, EditPlace>(tx, projectId, true);
    if (!row) return null;
    const edit: EditPlace = { ...row.edit };
    for (const [field, value] of Object.entries(change) as [PlaceField, unknown][]) {
      if (value === undefined) continue;
      if (value === null) delete edit[field];
      else edit[field] = value;
    }
    await writePlace(tx, projectId, row.source, edit);
    return projectPlace(tx, projectId);
  });
}
