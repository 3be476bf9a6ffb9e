import { z } from 'zod';
import { dataDateSchema } from './dates.js';
import { facingSchema, statsStatusSchema } from './enums.js';
import { safeText, secretText } from './text.js';

/**
 * A strict integer: a JSON number, or a string of decimal digits (query strings and paths carry text).
 * Nothing else is read as a number: not `true`, `[1]`, `""`, `"0x10"`, `"1e3"` or `" 7"`.
 */
const strictInteger = (message: string) =>
  z
    .union(
      [
        z.number({ message }),
        z
          .string({ message })
          .regex(/^-?\d{1,16}$/, { message })
          .transform(Number),
      ],
      {
        message,
      },
    )
    .pipe(z.number({ message }).int({ message }));

export const idSchema = (name: string) => {
  const message = `${name}: должно быть целым положительным числом`;
  return strictInteger(message).pipe(
    z
      .number()
      .positive({ message })
      .max(2147483647, { message: `${name}: слишком большое число` }),
  );
};

/** An integer in [min, max] (from JSON or a query string), every failure saying `${name}: ${rule}`. */
export const intInRange = (
  name: string,
  min: number,
  max: number,
  rule = `целое число от ${min} до ${max}`,
) => {
  const message = `${name}: ${rule}`;
  return strictInteger(message).pipe(z.number().min(min, { message }).max(max, { message }));
};

// --- auth ---
export const loginRequestSchema = z.object({
  username: safeText('username', 100).trim().pipe(z.string().min(1, 'username: укажите имя пользователя')),
  password: secretText('password', 200).pipe(z.string().min(1, 'password: укажите пароль')),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;
export const sessionSchema = z.object({
  username: z.string(),
  token: z.string(),
  role: z.enum(['admin', 'analyst', 'viewer']),
  /** CSV/Excel downloads allowed (viewers only while VIEWERS_EXPORT is on) */
  canExport: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

// --- catalog ---
export const developerSchema = z.object({ id: z.number().int(), name: z.string() });
export type Developer = z.infer<typeof developerSchema>;
export const developersResponseSchema = z.array(developerSchema);

export const projectsQuerySchema = z.object({ developerId: idSchema('developerId') });
export const projectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  minFlatCreatedAt: z.string().nullable(),
  /** the date of the project's last snapshot: the dashboard's range reaches it by default */
  lastSnapshotDate: z.string().nullable(),
});
export type Project = z.infer<typeof projectSchema>;
export const projectsResponseSchema = z.array(projectSchema);

// --- stats (§4.2) ---
export const MAX_STATS_RANGE_YEARS = 15;
export const statsRequestSchema = z.object({
  projectId: idSchema('projectId'),
  from: dataDateSchema,
  to: dataDateSchema,
  /** §10.2: `AVAILABLE` leaves reserved lots out of every figure */
  status: statsStatusSchema.default('ALL'),
});
export type StatsRequest = z.infer<typeof statsRequestSchema>;

const priceMap = z.record(z.string(), z.number().nullable());
export const statsPointSchema = z.object({
  date: z.string(),
  minMeterPrice: z.number(),
  maxMeterPrice: z.number(),
  avgMeterPrice: z.number(),
  avgMeterPriceByFacing: priceMap,
  avgMeterPriceBySettlementDate: priceMap,
  avgMeterPriceByBuilding: priceMap,
  avgMeterPriceByRoomsNumber: priceMap,
});
export type StatsPoint = z.infer<typeof statsPointSchema>;
export const roomGroupDataSchema = z.object({ points: z.array(statsPointSchema) });
export type RoomGroupData = z.infer<typeof roomGroupDataSchema>;

export const flatsCountSeriesSchema = z.object({
  label: z.string(),
  points: z.array(z.object({ date: z.string(), count: z.number().int() })),
});
export type FlatsCountSeries = z.infer<typeof flatsCountSeriesSchema>;

export const shortFlatSummarySchema = z.object({
  id: z.string(),
  buildingName: z.string(),
  settlementDate: z.string().nullable(),
  facingType: facingSchema,
  roomsNumber: z.number().int(),
  activeFlatsCount: z.number().int(),
  maxMeterPrice: z.number(),
  avgMeterPrice: z.number(),
  minMeterPrice: z.number(),
  maxDiscountLastDay: z.number(),
  maxDiscount7Days: z.number(),
  maxDiscount1Month: z.number(),
  maxDiscount1Year: z.number(),
  /**
   * the largest of the developer's own discounts (§11.4: (old price − price) / old price, %) of the row's
   * flats, never mixed with the four above; null while none of them shows a crossed-out price above its
   * price. Absent from a
   * summary kept before it existed, until the project's next import (or `cena-metra rebuild`).
   */
  maxDeveloperDiscount: z.number().nullable().optional(),
});
export type ShortFlatSummary = z.infer<typeof shortFlatSummarySchema>;

export const statsResponseSchema = z.object({
  allRoomsData: roomGroupDataSchema,
  studioData: roomGroupDataSchema,
  oneRoomData: roomGroupDataSchema,
  twoRoomsData: roomGroupDataSchema,
  threeAndMoreRoomData: roomGroupDataSchema,
  flatsCountList: z.array(flatsCountSeriesSchema),
  shortFlatSummaryList: z.array(shortFlatSummarySchema),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;

// --- health ---
export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgresql']),
  lastSnapshotDate: z.string().nullable(),
  demo: z.boolean(),
  /** the Telegram channel the charts credit (TELEGRAM_CHANNEL_URL), when configured */
  telegramChannelUrl: z.string().nullable(),
  /** the read replicas of DATABASE_READ_URL as last looked at (DESIGN §11.2); empty without them */
  readReplicas: z.array(
    z.object({
      replica: z.number().int(),
      state: z.enum(['unknown', 'ok', 'lagging', 'down', 'not-a-replica']),
      lagSeconds: z.number().nullable(),
      reads: z.number().int(),
    }),
  ),
});
export type Health = z.infer<typeof healthSchema>;

// --- ingest results (shared by CLI and API) ---
export const IMPORT_STATUSES = ['imported', 'replaced', 'unchanged'] as const;
export const importResultSchema = z.object({
  developer: z.string(),
  project: z.string(),
  date: z.string(),
  status: z.enum(IMPORT_STATUSES),
  flats: z.number().int(),
  events: z.object({
    NEW: z.number().int(),
    REMOVED: z.number().int(),
    PRICE_UP: z.number().int(),
    PRICE_DOWN: z.number().int(),
    AREA_CHANGED: z.number().int(),
    PROMO_STARTED: z.number().int(),
    PROMO_ENDED: z.number().int(),
  }),
  /** §10.4: the list is far shorter than the ones before it; flats it leaves out keep their record */
  partial: z.boolean(),
  /** values refused with the rest of the list kept, each naming the file and the field (§11.3–11.4) */
  warnings: z.array(z.string()).optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

// --- profile ---
export const passwordChangeSchema = z.object({
  currentPassword: secretText('currentPassword', 200).pipe(z.string().min(1, 'укажите текущий пароль')),
  newPassword: secretText('newPassword', 200).pipe(z.string().min(8, 'не короче 8 символов')),
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;
