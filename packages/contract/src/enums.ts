import { z } from 'zod';

/** Finish types as the product stores them ("facing" in the old client's vocabulary). */
export const FACINGS = ['BLACK', 'WHITE', 'FINE_FINISHING', 'FURNITURE', 'UNKNOWN'] as const;
export const facingSchema = z.enum(FACINGS);
export type Facing = z.infer<typeof facingSchema>;

export const FLAT_STATUSES = ['AVAILABLE', 'RESERVED'] as const;
export const flatStatusSchema = z.enum(FLAT_STATUSES);
export type FlatStatus = z.infer<typeof flatStatusSchema>;

/** Chart breakdown types of the dashboard (DESIGN §6: five values). */
export const CHART_TYPES = ['NONE', 'FACING', 'SETTLEMENT_DATE', 'BUILDING', 'ROOMS_NUMBER'] as const;
export const chartTypeSchema = z.enum(CHART_TYPES);
export type ChartType = z.infer<typeof chartTypeSchema>;

/** Room groups of §4.2, in response order. */
export const ROOM_GROUPS = ['all', 'studio', 'one', 'two', 'threeAndMore'] as const;
export type RoomGroup = (typeof ROOM_GROUPS)[number];

export const EVENT_KINDS = ['NEW', 'REMOVED', 'PRICE_UP', 'PRICE_DOWN'] as const;
export const eventKindSchema = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof eventKindSchema>;

export const DISCOUNT_PERIODS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export const discountPeriodSchema = z.enum(DISCOUNT_PERIODS);
export type DiscountPeriod = z.infer<typeof discountPeriodSchema>;
