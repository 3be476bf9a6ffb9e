import { z } from 'zod';
import { idSchema } from './api.js';
import { safeText } from './text.js';

// --- where a project is (DESIGN §11.3) ---

/** How the minutes to a station are counted: on foot or by transport (YRL time-on-foot / time-on-transport). */
export const STATION_MODES = ['foot', 'transport'] as const;
export type StationMode = (typeof STATION_MODES)[number];
/** A metro station or a railway (МЦД, электричка) station. */
export const STATION_KINDS = ['metro', 'rail'] as const;
export type StationKind = (typeof STATION_KINDS)[number];
export const STATION_MODE_LABELS: Record<StationMode, string> = { foot: 'пешком', transport: 'транспортом' };

/** The bands a place's numbers must be in: a value outside is refused with its field named. */
export const PLACE_LIMITS = {
  maxLatitude: 90,
  maxLongitude: 180,
  maxMinutes: 300,
  maxStations: 3,
  maxText: 200,
  maxAddress: 300,
} as const;

export const stationSchema = z.object({
  name: z.string(),
  minutes: z.number().int().nullable(),
  mode: z.enum(STATION_MODES).nullable(),
  kind: z.enum(STATION_KINDS),
});
export type Station = z.infer<typeof stationSchema>;

export const placeSchema = z.object({
  region: z.string().nullable(),
  city: z.string().nullable(),
  /** the district (sub-locality): «Южное Бутово», «Приморский район» */
  district: z.string().nullable(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  stations: z.array(stationSchema),
});
export type Place = z.infer<typeof placeSchema>;

/** The fields of a place a source or a hand edit sets one by one (the coordinates go as a pair). */
export const PLACE_FIELDS = ['region', 'city', 'district', 'address', 'coordinates', 'stations'] as const;
export type PlaceField = (typeof PLACE_FIELDS)[number];
export const PLACE_FIELD_LABELS: Record<PlaceField, string> = {
  region: 'Регион',
  city: 'Город',
  district: 'Район',
  address: 'Адрес',
  coordinates: 'Координаты',
  stations: 'Станции',
};

export const EMPTY_PLACE: Place = {
  region: null,
  city: null,
  district: null,
  address: null,
  latitude: null,
  longitude: null,
  stations: [],
};

const placeText = (name: string, max: number) =>
  safeText(name, max)
    .trim()
    .transform((v) => v || null)
    .nullable();

/**
 * A hand edit of a project's place (`PUT /api/project/{id}/place`): each field given replaces the sources'
 * value and wins over every later import; `null` takes the hand value back (the sources' value shows again).
 */
export const placeEditSchema = z
  .object({
    region: placeText('region', PLACE_LIMITS.maxText).optional(),
    city: placeText('city', PLACE_LIMITS.maxText).optional(),
    district: placeText('district', PLACE_LIMITS.maxText).optional(),
    address: placeText('address', PLACE_LIMITS.maxAddress).optional(),
    coordinates: z
      .object({
        latitude: z
          .number({ message: 'coordinates.latitude: должно быть числом' })
          .min(-PLACE_LIMITS.maxLatitude, { message: 'coordinates.latitude: от −90 до 90' })
          .max(PLACE_LIMITS.maxLatitude, { message: 'coordinates.latitude: от −90 до 90' }),
        longitude: z
          .number({ message: 'coordinates.longitude: должно быть числом' })
          .min(-PLACE_LIMITS.maxLongitude, { message: 'coordinates.longitude: от −180 до 180' })
          .max(PLACE_LIMITS.maxLongitude, { message: 'coordinates.longitude: от −180 до 180' }),
      })
      .nullable()
      .optional(),
    stations: z
      .array(
        z.object({
          name: safeText('stations.name', PLACE_LIMITS.maxText)
            .trim()
            .pipe(z.string().min(1, 'stations.name: укажите станцию')),
          minutes: z
            .number({ message: 'stations.minutes: должно быть числом' })
            .int({ message: 'stations.minutes: целое число минут' })
            .min(0, { message: `stations.minutes: от 0 до ${PLACE_LIMITS.maxMinutes}` })
            .max(PLACE_LIMITS.maxMinutes, { message: `stations.minutes: от 0 до ${PLACE_LIMITS.maxMinutes}` })
            .nullable()
            .default(null),
          mode: z.enum(STATION_MODES).nullable().default(null),
          kind: z.enum(STATION_KINDS).default('metro'),
        }),
      )
      .max(PLACE_LIMITS.maxStations, { message: `stations: не больше ${PLACE_LIMITS.maxStations} станций` })
      .nullable()
      .optional(),
  })
  .strict();
export type PlaceEdit = z.input<typeof placeEditSchema>;
export type PlaceEditParsed = z.output<typeof placeEditSchema>;

export const placeParamsSchema = z.object({ id: idSchema('id') });
/** A project's place as shown and as its sources and hand edits give it. */
export const projectPlaceSchema = z.object({
  projectId: z.number().int(),
  place: placeSchema,
  /** the fields a hand edit holds (they win over the sources) */
  edited: z.array(z.enum(PLACE_FIELDS)),
  /** what the sources said last, field by field (shown beside a hand edit) */
  sources: placeSchema,
});
export type ProjectPlace = z.infer<typeof projectPlaceSchema>;

/** The place's fields the market groups and filters by. */
export const PLACE_GROUPS = ['region', 'city', 'district', 'station'] as const;
export type PlaceGroup = (typeof PLACE_GROUPS)[number];
export const PLACE_GROUP_LABELS: Record<PlaceGroup, string> = {
  region: 'Регион',
  city: 'Город',
  district: 'Район',
  station: 'Метро',
};
/** The name of a group of projects without the field («Район не указан»). */
export const NO_PLACE = 'Не указано';

/** The key a project falls under when the market groups by `by`: its first station for `station`. */
export function placeKey(place: Place, by: PlaceGroup): string | null {
  if (by === 'station') return place.stations[0]?.name ?? null;
  return place[by];
}

/** What a place of `by` lies in: a district's or a station's city, a city's region (none for a region). */
export function placeParent(place: Place, by: PlaceGroup): string | null {
  if (by === 'region') return null;
  if (by === 'city') return place.region;
  return place.city ?? place.region;
}

/** The column of a place's parent: «Город» for districts and stations, «Регион» for cities, none for regions. */
export function placeParentLabel(by: PlaceGroup): string | null {
  return by === 'region' ? null : by === 'city' ? 'Регион' : 'Город';
}

/** «Саларьево, 5 мин пешком» */
export function stationText(s: Station): string {
  if (s.minutes === null) return s.name;
  return `${s.name}, ${s.minutes} мин${s.mode ? ` ${STATION_MODE_LABELS[s.mode]}` : ''}`;
}

/** «Южное Бутово, Москва · м. Бунинская аллея»: a place in one line ('' when nothing is known). */
export function placeLine(place: Place): string {
  const where = [place.district, place.city ?? place.region].filter(Boolean).join(', ');
  const station = place.stations[0] ? `м. ${place.stations[0].name}` : '';
  return [where, station].filter(Boolean).join(' · ');
}

/** Every project's place (`GET /api/places/projects`), for the market's map, table and exports. */
export const projectPlacesResponseSchema = z.object({
  projects: z.array(placeSchema.extend({ projectId: z.number().int() })),
});
export type ProjectPlacesResponse = z.infer<typeof projectPlacesResponseSchema>;

/** The places the market's projects are in, for the filters: each list sorted, without repeats. */
export const placesResponseSchema = z.object({
  regions: z.array(z.string()),
  cities: z.array(z.string()),
  districts: z.array(z.string()),
  stations: z.array(z.string()),
});
export type PlacesResponse = z.infer<typeof placesResponseSchema>;
