import { z } from 'zod';
import { idSchema } from './api.js';
import { dataDateSchema } from './dates.js';
import { flatStatusSchema } from './enums.js';
import { safeText } from './text.js';

// --- the chessboard (DESIGN §10.7) ---
export const chessQuerySchema = z.object({
  projectId: idSchema('projectId'),
  /** a building key; by default the project's first building */
  building: safeText('building', 100).optional(),
  /** by default the project's last day with data */
  date: dataDateSchema.optional(),
  /** the day «change since» compares with */
  since: dataDateSchema.optional(),
});
export type ChessQuery = z.input<typeof chessQuerySchema>;
export const CHESS_STATES = ['active', 'gone'] as const;
export const chessCellSchema = z.object({
  flatId: z.number().int(),
  state: z.enum(CHESS_STATES),
  status: flatStatusSchema.nullable(),
  section: z.string().nullable(),
  floor: z.number().int().nullable(),
  number: z.string().nullable(),
  rooms: z.number().int(),
  area: z.number(),
  price: z.number(),
  meterPrice: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  daysOnMarket: z.number().int(),
  /** its price on `since` when it was on sale then */
  priceSince: z.number().nullable(),
});
export type ChessCellView = z.infer<typeof chessCellSchema>;
export const chessResponseSchema = z.object({
  projectId: z.number().int(),
  building: z.string().nullable(),
  buildings: z.array(z.string()),
  /** the project's snapshot dates (the slider's stops) */
  dates: z.array(z.string()),
  /** the day shown: the last day with data on or before the one asked; null when none */
  date: z.string().nullable(),
  since: z.string().nullable(),
  sections: z.array(
    z.object({
      section: z.string().nullable(),
      floors: z.array(z.object({ floor: z.number().int(), cells: z.array(chessCellSchema) })),
    }),
  ),
  /** flats without a floor or a number */
  strip: z.array(chessCellSchema),
});
export type ChessResponse = z.infer<typeof chessResponseSchema>;
