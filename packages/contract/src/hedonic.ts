import { z } from 'zod';
import { idSchema } from './api.js';
import { dataDateSchema } from './dates.js';
import { ROOM_GROUPS } from './enums.js';
import { PRICE_CLASSES, placeFilter } from './pace.js';

// Prices net of mix (DESIGN §12.4): the hedonic index of a segment of the market.

/** A segment of the market (DESIGN §12.4): the projects of a place and of a class, the lots of a rooms group. */
const segmentFilters = {
  region: placeFilter('region'),
  city: placeFilter('city'),
  district: placeFilter('district'),
  priceClass: z
    .enum(PRICE_CLASSES, { message: `priceClass: одно из ${PRICE_CLASSES.join(', ')}` })
    .optional(),
  rooms: z.enum(ROOM_GROUPS, { message: `rooms: одно из ${ROOM_GROUPS.join(', ')}` }).default('all'),
};

export const hedonicRequestSchema = z.object({
  /** none: the whole market, all its lots */
  ...segmentFilters,
  from: dataDateSchema,
  to: dataDateSchema,
  /** monthly points (kept), or weekly ones (a quarter's window, fitted per request) */
  step: z.enum(['month', 'week'], { message: 'step: month или week' }).default('month'),
});
export type HedonicRequest = z.input<typeof hedonicRequestSchema>;

export const hedonicPointSchema = z.object({
  /** the period's first day */
  date: z.string(),
  /** 100 at the first point */
  index: z.number(),
  /** the index's change from the point before, %; null on the first point */
  change: z.number().nullable(),
  /** the 95 % interval of the index, given the point before */
  low: z.number(),
  high: z.number(),
  observations: z.number().int(),
  projects: z.number().int(),
  /** Σ price / Σ area of the period's observations */
  avgMeterPrice: z.number(),
  /** the average ppm's change split into price (the index's) and mix (the rest), % */
  priceEffect: z.number().nullable(),
  mixEffect: z.number().nullable(),
});
export type HedonicPoint = z.infer<typeof hedonicPointSchema>;

export const hedonicResponseSchema = z.object({
  points: z.array(hedonicPointSchema),
  /** projects of the last point's window left out for fewer than 5 observations */
  dropped: z.number().int(),
});
export type HedonicResponse = z.infer<typeof hedonicResponseSchema>;

export const comparableSchema = z.object({
  flatId: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  rooms: z.number().int(),
  area: z.number(),
  price: z.number(),
  /** its price adjusted to the flat by the model's coefficients, for the flat's area */
  adjustedPrice: z.number(),
  /** the adjustment of its price per m², % */
  adjustment: z.number(),
  /** km between the two projects; null when either has no coordinates */
  km: z.number().nullable(),
});
export type Comparable = z.infer<typeof comparableSchema>;

/** GET /api/flat/fair?flatId= (DESIGN §12.4): an active flat's fair price and its comparables. */
export const fairResponseSchema = z.object({
  flatId: z.number().int(),
  price: z.number(),
  area: z.number(),
  /** the month of the window the fair price is read from (its first day) */
  month: z.string(),
  /** the segment fitted: the project's city, else its region, else the whole market */
  segment: z.string(),
  fairPrice: z.number(),
  fairMeterPrice: z.number(),
  /** price / fair − 1, %: below zero, cheaper than its peers */
  premium: z.number(),
  comparables: z.array(comparableSchema),
});
export type FairResponse = z.infer<typeof fairResponseSchema>;

/** POST /api/market/below-comparables (DESIGN §12.4): flats priced below their peers, filtered like «Рынок». */
export const belowComparablesRequestSchema = z.object({
  ...segmentFilters,
  developerId: idSchema('developerId').optional(),
  station: placeFilter('station'),
  /** X of «premium ≤ −X %» */
  threshold: z.coerce
    .number({ message: 'threshold: число процентов от 0 до 90' })
    .min(0, 'threshold: число процентов от 0 до 90')
    .max(90, 'threshold: число процентов от 0 до 90')
    .default(10),
  limit: z.coerce
    .number({ message: 'limit: целое от 1 до 1000' })
    .int('limit: целое от 1 до 1000')
    .min(1, 'limit: целое от 1 до 1000')
    .max(1000, 'limit: целое от 1 до 1000')
    .default(200),
});
export type BelowComparablesRequest = z.input<typeof belowComparablesRequestSchema>;

export const belowComparableRowSchema = z.object({
  flatId: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  developerName: z.string(),
  /** the segment its fair price is read from */
  segment: z.string(),
  rooms: z.number().int(),
  area: z.number(),
  floor: z.number().int().nullable(),
  price: z.number(),
  meterPrice: z.number(),
  fairPrice: z.number(),
  /** price / fair − 1, % */
  premium: z.number(),
});
export type BelowComparableRow = z.infer<typeof belowComparableRowSchema>;

export const belowComparablesResponseSchema = z.object({
  /** the flats at or below the threshold, the cheapest against their fair price first, `limit` at most */
  rows: z.array(belowComparableRowSchema),
  /** how many flats are at or below it in all */
  total: z.number().int(),
  /** the active flats priced (those of projects the model could not fit are not) */
  priced: z.number().int(),
});
export type BelowComparablesResponse = z.infer<typeof belowComparablesResponseSchema>;
