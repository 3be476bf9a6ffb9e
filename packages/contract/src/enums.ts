import { z } from 'zod';

/** Finish types as the product stores them ("facing" in the old client's vocabulary). */
export const FACINGS = ['BLACK', 'WHITE', 'FINE_FINISHING', 'FURNITURE', 'UNKNOWN'] as const;
export const facingSchema = z.enum(FACINGS);
export type Facing = z.infer<typeof facingSchema>;

export const FLAT_STATUSES = ['AVAILABLE', 'RESERVED'] as const;
export const flatStatusSchema = z.enum(FLAT_STATUSES);
export type FlatStatus = z.infer<typeof flatStatusSchema>;

/**
 * Which lots a figure counts (DESIGN §10.2): `ALL` (default, as §4) or `AVAILABLE` (reserved lots left out;
 * a lot without a status counts as available).
 */
export const STATS_STATUSES = ['ALL', 'AVAILABLE'] as const;
export const statsStatusSchema = z.enum(STATS_STATUSES);
export type StatsStatus = z.infer<typeof statsStatusSchema>;

/** Chart breakdown types of the dashboard (DESIGN §6: five values). */
export const CHART_TYPES = ['NONE', 'FACING', 'SETTLEMENT_DATE', 'BUILDING', 'ROOMS_NUMBER'] as const;
export const chartTypeSchema = z.enum(CHART_TYPES);
export type ChartType = z.infer<typeof chartTypeSchema>;

/** Room groups of §4.2, in response order. */
export const ROOM_GROUPS = ['all', 'studio', 'one', 'two', 'threeAndMore'] as const;
export type RoomGroup = (typeof ROOM_GROUPS)[number];

/**
 * Events of §4.4 and §10.3 (`AREA_CHANGED`: a listed flat's area differs by ≥ 0.01 m² from its last record)
 * and §11.4 (`PROMO_STARTED` / `PROMO_ENDED`: a listed flat's promotion or crossed-out price appears / goes).
 */
export const EVENT_KINDS = [
  'NEW',
  'REMOVED',
  'PRICE_UP',
  'PRICE_DOWN',
  'AREA_CHANGED',
  'PROMO_STARTED',
  'PROMO_ENDED',
] as const;
export const eventKindSchema = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKindSchema>;

export const DISCOUNT_PERIODS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export const discountPeriodSchema = z.enum(DISCOUNT_PERIODS);
export type DiscountPeriod = z.infer<typeof discountPeriodSchema>;

/** What a collected source serves (DESIGN §10.8): the PIK flats API, a Yandex Realty feed, our own formats. */
export const SOURCE_KINDS = ['pik-api', 'yrl', 'json', 'ndjson', 'csv', 'domrf'] as const;
export const sourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKindSchema>;
