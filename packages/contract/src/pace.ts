import { z } from 'zod';
import { idSchema } from './api.js';
import { dataDateSchema } from './dates.js';
import { ROOM_GROUPS, statsStatusSchema } from './enums.js';
import { PLACE_GROUPS, placeSchema } from './place.js';
import { safeText } from './text.js';

// The sales pace, the same-flat index, and what the market builds on them: a developer's or the market's
// pace, the ranking, the comparison (DESIGN §10.5–10.6, §11.3).

const optionalId = (name: string) => idSchema(name).optional();

// --- sales pace and the same-flat index (DESIGN §10.5–10.6) ---
export const paceRequestSchema = z.object({
  projectId: idSchema('projectId'),
  from: dataDateSchema,
  to: dataDateSchema,
  building: safeText('building', 100).optional(),
  rooms: z.enum(ROOM_GROUPS).default('all'),
  status: statsStatusSchema.default('ALL'),
});
export type PaceRequest = z.input<typeof paceRequestSchema>;
export const pacePointSchema = z.object({
  date: z.string(),
  stock: z.number().int(),
  new7: z.number().int(),
  new30: z.number().int(),
  gone7: z.number().int(),
  gone30: z.number().int(),
  absorption: z.number().nullable(),
  monthsOfSupply: z.number().nullable(),
  medianDaysOnMarket: z.number().nullable(),
  medianStockAge: z.number().nullable(),
});
export type PacePointView = z.infer<typeof pacePointSchema>;
export const paceResponseSchema = z.object({
  points: z.array(pacePointSchema),
  /** the values on the last day with data in the range */
  last: pacePointSchema.nullable(),
});
export type PaceResponse = z.infer<typeof paceResponseSchema>;
/** Pace per row of the summary table (building × completion × finish × rooms) on its day. */
export const paceRowsRequestSchema = z.object({
  projectId: idSchema('projectId'),
  date: dataDateSchema,
  status: statsStatusSchema.default('ALL'),
});
export type PaceRowsRequest = z.input<typeof paceRowsRequestSchema>;
export const paceRowSchema = z.object({
  /** the summary row's id */
  id: z.string(),
  absorption30: z.number().nullable(),
  medianDaysOnMarket: z.number().nullable(),
  medianStockAge: z.number().nullable(),
});
export type PaceRow = z.infer<typeof paceRowSchema>;
export const paceRowsResponseSchema = z.object({ date: z.string(), rows: z.array(paceRowSchema) });
export type PaceRowsResponse = z.infer<typeof paceRowsResponseSchema>;
/** The ppm histogram of the flats active on a day (the last with data ≤ date; by default the last). */
export const distributionRequestSchema = z.object({
  projectId: idSchema('projectId'),
  date: dataDateSchema.optional(),
  status: statsStatusSchema.default('ALL'),
});
export type DistributionRequest = z.input<typeof distributionRequestSchema>;
export const distributionResponseSchema = z.object({
  /** the day the flats are of; null when the project has no data by then */
  date: z.string().nullable(),
  groups: z.array(
    z.object({
      group: z.enum(ROOM_GROUPS),
      count: z.number().int(),
      median: z.number().nullable(),
      bins: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
    }),
  ),
});
export type DistributionResponse = z.infer<typeof distributionResponseSchema>;
export const indexRequestSchema = z.object({
  projectId: idSchema('projectId'),
  from: dataDateSchema,
  to: dataDateSchema,
});
export const indexResponseSchema = z.object({
  series: z.array(
    z.object({
      group: z.enum(ROOM_GROUPS),
      points: z.array(z.object({ date: z.string(), index: z.number() })),
    }),
  ),
});
export type IndexResponse = z.infer<typeof indexResponseSchema>;

// --- a developer's or the market's pace, the market's ranking, the comparison (DESIGN §10.5–10.6) ---
/** The market's classes; a project's by hand, the registry's or its region's price bands (classes.ts). */
export const PRICE_CLASSES = ['economy', 'comfort', 'business', 'premium'] as const;
export type PriceClass = (typeof PRICE_CLASSES)[number];
export const PRICE_CLASS_LABELS: Record<PriceClass, string> = {
  economy: 'Эконом',
  comfort: 'Комфорт',
  business: 'Бизнес',
  premium: 'Премиум',
};
/**
 * Where a project's class comes from (DESIGN §12.3): set by hand (wins), the registry's (`objLkClassDesc` of
 * most of its flats), else by its region's price bands (classes.ts).
 */
export const CLASS_ORIGINS = ['hand', 'registry', 'price'] as const;
export type ClassOrigin = (typeof CLASS_ORIGINS)[number];
export const CLASS_ORIGIN_LABELS: Record<ClassOrigin, string> = {
  hand: 'вручную',
  registry: 'реестр',
  price: 'по цене',
};

export const marketPacePointSchema = pacePointSchema.extend({
  /** the same-flat index over the union's flats (100 on the first day with data) */
  index: z.number(),
  avgMeterPrice: z.number().nullable(),
});
export type MarketPacePoint = z.infer<typeof marketPacePointSchema>;

export const marketPaceResponseSchema = z.object({
  projects: z.number().int(),
  points: z.array(marketPacePointSchema),
  last: marketPacePointSchema.nullable(),
});
export type MarketPaceResponse = z.infer<typeof marketPaceResponseSchema>;

/** A place filter of a request: a trimmed text, empty as none. */
export const placeFilter = (name: string) =>
  safeText(name, 200)
    .trim()
    .transform((v) => v || undefined)
    .optional();

export const marketPaceRequestSchema = z.object({
  /** the developer's projects; none: the whole market */
  developerId: optionalId('developerId'),
  from: dataDateSchema,
  to: dataDateSchema,
  rooms: z.enum(ROOM_GROUPS).default('all'),
  status: statsStatusSchema.default('ALL'),
  /** the projects of a place (DESIGN §11.3), as the ranking's filters */
  region: placeFilter('region'),
  city: placeFilter('city'),
  district: placeFilter('district'),
  station: placeFilter('station'),
  /** the projects of a class (DESIGN §12.3) as on their latest list: by hand, the registry's, else by price */
  priceClass: z.enum(PRICE_CLASSES).optional(),
});
export type MarketPaceRequest = z.input<typeof marketPaceRequestSchema>;

export const marketRequestSchema = z.object({
  from: dataDateSchema,
  to: dataDateSchema,
  status: statsStatusSchema.default('ALL'),
  developerId: optionalId('developerId'),
  priceClass: z
    .enum(PRICE_CLASSES, { message: `priceClass: одно из ${PRICE_CLASSES.join(', ')}` })
    .optional(),
  /** the projects of a place (DESIGN §11.3): equal names, case aside; a station is any of a project's */
  region: placeFilter('region'),
  city: placeFilter('city'),
  district: placeFilter('district'),
  station: placeFilter('station'),
  /** what the table of places groups the selection by; none: no table of places (the ranking alone) */
  groupBy: z.enum(PLACE_GROUPS, { message: `groupBy: одно из ${PLACE_GROUPS.join(', ')}` }).optional(),
  /** the projects' rows in the answer (false: none — a table of developers or places, a map of its own) */
  projects: z.boolean({ message: 'projects: true или false' }).default(true),
});
export type MarketRequest = z.input<typeof marketRequestSchema>;
export const marketRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  developerId: z.number().int(),
  /** a project's developer (a developer's row: itself; empty for a place's and the total's row) */
  developerName: z.string(),
  /** a place's row: what the place lies in (a district's city, a city's region); empty when unknown */
  parent: z.string().optional(),
  /** for a developer or a place: its projects in the ranking */
  projects: z.number().int(),
  /** the last day with data in the period: the figures are that day's */
  date: z.string(),
  stock: z.number().int(),
  new30: z.number().int(),
  gone30: z.number().int(),
  absorption: z.number().nullable(),
  monthsOfSupply: z.number().nullable(),
  medianDaysOnMarket: z.number().nullable(),
  avgMeterPrice: z.number().nullable(),
  priceClass: z.enum(PRICE_CLASSES).nullable(),
  /** a project's: where its class comes from (a union's class is the one most of its stock has) */
  classOrigin: z.enum(CLASS_ORIGINS).nullable().optional(),
  /** the same-flat index's change over the period, % */
  indexChange: z.number(),
  /**
   * a project's place (DESIGN §11.3): /api/market leaves it out (places change rarely, the ranking every
   * request: 5,000 places would double its body); the web joins /api/places/projects in by the row's id
   */
  place: placeSchema.optional(),
});
export type MarketRow = z.infer<typeof marketRowSchema>;
export const marketResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  projects: z.array(marketRowSchema),
  developers: z.array(marketRowSchema),
  /** the whole selection as one union (id 0) */
  total: marketRowSchema.nullable(),
  /** the selection's projects grouped by `groupBy` (a union each, named by the place, «Не указано» without);
   *  null when no `groupBy` was asked */
  places: z.object({ by: z.enum(PLACE_GROUPS), rows: z.array(marketRowSchema) }).nullable(),
});
export type MarketResponse = z.infer<typeof marketResponseSchema>;

export const COMPARE_METRICS = ['avgMeterPrice', 'index', 'hedonic', 'stock', 'absorption'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];
export const COMPARE_METRIC_LABELS: Record<CompareMetric, string> = {
  avgMeterPrice: 'Средняя цена м², ₽',
  index: 'Индекс цен тех же квартир',
  hedonic: 'Индекс цен без учёта структуры (по месяцам)',
  stock: 'Квартир в продаже',
  absorption: 'Вымываемость за 30 дней, %',
};
export const COMPARE_MAX = 10;
export const compareRequestSchema = z.object({
  projectIds: z
    .array(idSchema('projectIds'))
    .min(1, { message: 'projectIds: хотя бы один проект' })
    .max(COMPARE_MAX, { message: `projectIds: не больше ${COMPARE_MAX} проектов` })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'projectIds: проекты повторяются' }),
  from: dataDateSchema,
  to: dataDateSchema,
  metric: z.enum(COMPARE_METRICS, { message: `metric: одно из ${COMPARE_METRICS.join(', ')}` }),
  status: statsStatusSchema.default('ALL'),
});
export type CompareRequest = z.input<typeof compareRequestSchema>;
export const compareResponseSchema = z.object({
  metric: z.enum(COMPARE_METRICS),
  series: z.array(
    z.object({
      projectId: z.number().int(),
      projectName: z.string(),
      developerName: z.string(),
      /** where the project is (DESIGN §11.3: the comparison carries the place) */
      place: placeSchema,
      points: z.array(z.object({ date: z.string(), value: z.number().nullable() })),
    }),
  ),
});
export type CompareResponse = z.infer<typeof compareResponseSchema>;
