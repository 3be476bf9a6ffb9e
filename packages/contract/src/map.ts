import { z } from 'zod';
import { marketRequestSchema } from './pace.js';

// «Рынок»'s map (issue 46): what basemap the server offers.

export const mapConfigResponseSchema = z.object({
  /** `pmtiles`: our own archive at `url` (Protomaps' style drawn over it); `style`: an operator's style at
   * `url`; `none`: no basemap, the country's outline under the points */
  basemap: z.enum(['pmtiles', 'style', 'none']),
  url: z.string().nullable(),
});
export type MapConfigResponse = z.infer<typeof mapConfigResponseSchema>;

/**
 * «Рынок»'s map in columns (issue 46, `POST /api/market/map`): the projects of «Рынок»'s selection that have
 * coordinates, one entry each in every array — the registry-only ones first (drawn under ours) — with what
 * a circle and its tooltip show; those without coordinates apart. The selection's rows as the ranking, the
 * places and the registry's answer give them (the table's rows), without their other figures: the map of
 * the whole country is ~17,000 circles, and its rows as objects were megabytes to read and check.
 */
export const marketMapRequestSchema = marketRequestSchema.omit({ groupBy: true, projects: true }).extend({
  /** only projects with price lists (no registry-only project); a station asked implies it */
  listsOnly: z.boolean({ message: 'listsOnly: true или false' }).default(false),
});
export type MarketMapRequest = z.input<typeof marketMapRequestSchema>;

const numbers = z.array(z.number());
const maybeNumbers = z.array(z.number().nullable());
const ints = z.array(z.number().int());

const marketMapShape = {
  /** ours: the project's id; a registry-only project: −(its first object's number) */
  id: ints,
  /** 0 for a registry-only project */
  developerId: ints,
  name: z.array(z.string()),
  /** the developer's name: its place in `developers` */
  developer: ints,
  developers: z.array(z.string()),
  /** the place's names: its place in `places` */
  place: ints,
  places: z.array(
    z.object({
      city: z.string().nullable(),
      district: z.string().nullable(),
      station: z.string().nullable(),
    }),
  ),
  longitude: numbers,
  latitude: numbers,
  /** what a circle's area shows: the stock; a registry-only project's flats (0 when unknown) */
  size: ints,
  /** the figures a circle is coloured by, and the tooltip's: null for a registry-only project */
  avgMeterPrice: maybeNumbers,
  indexChange: maybeNumbers,
  absorption: maybeNumbers,
  /** a registry-only project's registry figures (null for ours) */
  objects: z.array(z.number().int().nullable()),
  soldShare: maybeNumbers,
  ready: z.array(z.string().nullable()),
  address: z.array(z.string().nullable()),
  /** the selection's projects without coordinates (listed under the map) */
  unplaced: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      developerId: z.number().int(),
      registryOnly: z.boolean(),
    }),
  ),
  /** the selection's registry-only projects, placed or not */
  registryOnly: z.number().int(),
};

/** The arrays of a point each (their lengths are `id`'s). */
export const MARKET_MAP_COLUMNS = [
  'id',
  'developerId',
  'name',
  'developer',
  'place',
  'longitude',
  'latitude',
  'size',
  'avgMeterPrice',
  'indexChange',
  'absorption',
  'objects',
  'soldShare',
  'ready',
  'address',
] as const;

export const marketMapResponseSchema = z.object(marketMapShape).superRefine((m, ctx) => {
  for (const key of MARKET_MAP_COLUMNS)
    if (m[key].length !== m.id.length)
      ctx.addIssue({ code: 'custom', message: 'each column has one value a point', path: [key] });
  if (m.developer.some((d) => d < 0 || d >= m.developers.length))
    ctx.addIssue({ code: 'custom', message: 'a developer out of `developers`', path: ['developer'] });
  if (m.place.some((p) => p < 0 || p >= m.places.length))
    ctx.addIssue({ code: 'custom', message: 'a place out of `places`', path: ['place'] });
});
export type MarketMapResponse = z.infer<typeof marketMapResponseSchema>;

type MapParsed = ReturnType<typeof marketMapResponseSchema.safeParse>;

/** What each column holds, checked by a loop: its elements' kind and whether null is one. */
const COLUMN_KINDS: Record<(typeof MARKET_MAP_COLUMNS)[number], ['int' | 'number' | 'string', boolean]> = {
  id: ['int', false],
  developerId: ['int', false],
  name: ['string', false],
  developer: ['int', false],
  place: ['int', false],
  longitude: ['number', false],
  latitude: ['number', false],
  size: ['int', false],
  avgMeterPrice: ['number', true],
  indexChange: ['number', true],
  absorption: ['number', true],
  objects: ['int', true],
  soldShare: ['number', true],
  ready: ['string', true],
  address: ['string', true],
};

function mapColumnOk(v: unknown, n: number, [kind, nullable]: ['int' | 'number' | 'string', boolean]) {
  if (!Array.isArray(v) || v.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (x === null) {
      if (!nullable) return false;
    } else if (kind === 'string') {
      if (typeof x !== 'string') return false;
    } else if (typeof x !== 'number' || !(kind === 'int' ? Number.isSafeInteger(x) : Number.isFinite(x)))
      return false;
  }
  return true;
}

const mapRestSchema = z.object({
  developers: marketMapShape.developers,
  places: marketMapShape.places,
  unplaced: marketMapShape.unplaced,
  registryOnly: marketMapShape.registryOnly,
});

/**
 * `marketMapResponseSchema.safeParse` at the speed of loops: the columns (the bulk) checked by hand, the rest
 * by the schema; whatever the loops do not take as exactly the schema's shape goes to the schema itself, so
 * the result and its errors are the schema's (map.test.ts holds the two equal).
 */
export function parseMarketMap(value: unknown): MapParsed {
  const slow = () => marketMapResponseSchema.safeParse(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return slow();
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length !== Object.keys(marketMapShape).length) return slow();
  const rest = mapRestSchema.safeParse({
    developers: v.developers,
    places: v.places,
    unplaced: v.unplaced,
    registryOnly: v.registryOnly,
  });
  if (!rest.success || !Array.isArray(v.id)) return slow();
  const n = v.id.length;
  for (const key of MARKET_MAP_COLUMNS) if (!mapColumnOk(v[key], n, COLUMN_KINDS[key])) return slow();
  const developer = v.developer as number[];
  const place = v.place as number[];
  for (let i = 0; i < n; i++)
    if (developer[i] < 0 || developer[i] >= rest.data.developers.length) return slow();
  for (let i = 0; i < n; i++) if (place[i] < 0 || place[i] >= rest.data.places.length) return slow();
  const data = { ...rest.data } as MarketMapResponse;
  for (const key of MARKET_MAP_COLUMNS) (data as Record<string, unknown>)[key] = v[key];
  return { success: true, data } as MapParsed;
}

/** The map's door for a client (the web): `marketMapResponseSchema`'s result, fast. */
export const marketMapAnswerSchema = { safeParse: parseMarketMap };
