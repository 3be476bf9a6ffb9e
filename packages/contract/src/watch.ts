import { z } from 'zod';
import { idSchema, intInRange } from './api.js';
import { facingSchema, ROOM_GROUPS } from './enums.js';
import { formatChange, formatRoubles } from './format.js';
import { buildingLabel, facingLabel, roomsLabel } from './labels.js';
import { safeText } from './text.js';

// --- watchlists and alerts (issue 17) ---

/**
 * What an alert says happened: a price change, the lot gone, back on sale, a new lot in a segment, or the
 * developer's promotion or crossed-out price appearing or going (§11.4).
 */
export const ALERT_KINDS = [
  'PRICE_UP',
  'PRICE_DOWN',
  'REMOVED',
  'BACK',
  'NEW',
  'PROMO_STARTED',
  'PROMO_ENDED',
] as const;
export const alertKindSchema = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof alertKindSchema>;

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  PRICE_UP: 'Подорожала',
  PRICE_DOWN: 'Подешевела',
  REMOVED: 'Снята с продажи',
  BACK: 'Снова в продаже',
  NEW: 'Новая в продаже',
  PROMO_STARTED: 'Появилась акция застройщика',
  PROMO_ENDED: 'Акция застройщика закончилась',
};

/**
 * The rules of a watched item: a price change (any, or one of at least `minChangePercent` either way),
 * the lot removed, back on sale, (segments only) new lots, and the developer's promotion or crossed-out
 * price appearing or going (off unless chosen).
 */
export const watchRulesSchema = z
  .object({
    price: z.boolean({ message: 'rules.price: да или нет' }).default(true),
    minChangePercent: z
      .number({ message: 'rules.minChangePercent: число от 0,1 до 100' })
      .min(0.1, { message: 'rules.minChangePercent: число от 0,1 до 100' })
      .max(100, { message: 'rules.minChangePercent: число от 0,1 до 100' })
      .nullable()
      .default(null),
    removed: z.boolean({ message: 'rules.removed: да или нет' }).default(true),
    back: z.boolean({ message: 'rules.back: да или нет' }).default(true),
    fresh: z.boolean({ message: 'rules.fresh: да или нет' }).default(false),
    promo: z.boolean({ message: 'rules.promo: да или нет' }).default(false),
  })
  .strict();
export type WatchRules = z.infer<typeof watchRulesSchema>;

const roomGroupSchema = z.enum(ROOM_GROUPS, {
  message: `rooms: одно из ${ROOM_GROUPS.join(', ')}`,
});

export const watchFlatRequestSchema = z
  .object({
    kind: z.literal('flat'),
    flatId: idSchema('flatId'),
    rules: watchRulesSchema.default(watchRulesSchema.parse({})),
  })
  .strict();

export const watchSegmentRequestSchema = z
  .object({
    kind: z.literal('segment'),
    projectId: idSchema('projectId'),
    building: safeText('building', 100).trim().optional(),
    rooms: roomGroupSchema.default('all'),
    maxPrice: intInRange('maxPrice', 1, 100_000_000_000, 'цена в рублях, целое положительное').optional(),
    finish: facingSchema.optional(),
    rules: watchRulesSchema.default(watchRulesSchema.parse({ fresh: true })),
  })
  .strict();

export const watchRequestSchema = z.discriminatedUnion(
  'kind',
  [watchFlatRequestSchema, watchSegmentRequestSchema],
  {
    message: 'kind: flat или segment',
  },
);
export type WatchRequest = z.input<typeof watchRequestSchema>;

export const watchUpdateSchema = z.object({ rules: watchRulesSchema }).strict();
export const watchParamsSchema = z.object({ id: idSchema('id') });

export const alertSchema = z.object({
  id: z.number().int(),
  watchId: z.number().int(),
  kind: alertKindSchema,
  day: z.string(),
  flatId: z.number().int(),
  projectName: z.string(),
  building: z.string(),
  rooms: z.number().int(),
  area: z.number(),
  oldPrice: z.number().nullable(),
  newPrice: z.number().nullable(),
  changePercent: z.number().nullable(),
  read: z.boolean(),
});
export type Alert = z.infer<typeof alertSchema>;

export const watchSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['flat', 'segment']),
  /** what is watched, in words: «ЖК Сад, корпус 3, кв. 45» or «ЖК Сад · корпус 3 · 2-комн. · до 15 млн ₽» */
  label: z.string(),
  projectId: z.number().int(),
  projectName: z.string(),
  flatId: z.number().int().nullable(),
  building: z.string().nullable(),
  rooms: z.enum(ROOM_GROUPS),
  maxPrice: z.number().nullable(),
  finish: facingSchema.nullable(),
  rules: watchRulesSchema,
  createdAt: z.string(),
  /** the latest alert of the item, if any */
  latest: alertSchema.nullable(),
  alerts: z.number().int(),
});
export type Watch = z.infer<typeof watchSchema>;
export const watchesResponseSchema = z.array(watchSchema);

export const alertsQuerySchema = z.object({
  unread: z.enum(['0', '1'], { message: 'unread: 0 или 1' }).optional(),
  limit: intInRange('limit', 1, 500).default(50),
});
export const alertsResponseSchema = z.object({ unread: z.number().int(), alerts: z.array(alertSchema) });
/** What marking alerts read answers: how many are left unread. */
export const alertsReadResponseSchema = z.object({ unread: z.number().int() });
export type AlertsResponse = z.infer<typeof alertsResponseSchema>;
export const alertsReadSchema = z
  .object({ ids: z.array(idSchema('ids')).max(1000, { message: 'ids: не больше 1000' }).optional() })
  .strict();

export const telegramLinkSchema = z.object({
  linked: z.boolean(),
  /** a one-time code for `/start <code>` in the bot, when one was just made */
  code: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** the bot's username, when the server knows it (a t.me link) */
  botUsername: z.string().nullable(),
});
export type TelegramLink = z.infer<typeof telegramLinkSchema>;

export const ROOM_GROUP_LABELS: Record<(typeof ROOM_GROUPS)[number], string> = {
  all: 'все квартиры',
  studio: 'студии',
  one: '1-комн.',
  two: '2-комн.',
  threeAndMore: '3+ комн.',
};

/** A watched item in words: «Квартира № 812 · ЖК Сад · корпус 3, № 45» or «ЖК Сад · корпус 3 · 2-комн. · до 15 000 000 ₽». */
export function watchLabel(w: {
  kind: 'flat' | 'segment';
  projectName: string;
  flatId: number | null;
  building: string | null;
  number?: string | null;
  rooms: (typeof ROOM_GROUPS)[number];
  maxPrice: number | null;
  finish: z.infer<typeof facingSchema> | null;
}): string {
  if (w.kind === 'flat')
    return [
      `Квартира № ${w.flatId}`,
      w.projectName,
      w.building === null ? null : `${buildingLabel(w.building)}${w.number ? `, № ${w.number}` : ''}`,
    ]
      .filter(Boolean)
      .join(' · ');
  return [
    w.projectName,
    w.building === null ? 'все корпуса' : buildingLabel(w.building),
    ROOM_GROUP_LABELS[w.rooms],
    w.maxPrice === null ? null : `до ${formatRoubles(w.maxPrice)} ₽`,
    w.finish === null ? null : facingLabel(w.finish),
  ]
    .filter(Boolean)
    .join(' · ');
}

export const CHANGES: [string, string, string] = ['изменение', 'изменения', 'изменений'];

/**
 * An alert in one line, for the site and the bot alike: «Подешевела: 8 000 000 → 7 600 000 ₽ (−5,00 %)»,
 * with the flat first for a segment's alert.
 */
export function alertText(a: Alert, withFlat: boolean): string {
  const flat = withFlat
    ? `кв. № ${a.flatId}, ${roomsLabel(a.rooms)}, ${a.area.toLocaleString('ru-RU')} м² — `
    : '';
  const what = ALERT_KIND_LABELS[a.kind];
  if ((a.kind === 'PRICE_UP' || a.kind === 'PRICE_DOWN') && a.oldPrice !== null && a.newPrice !== null)
    return `${flat}${what}: ${formatRoubles(a.oldPrice)} → ${formatRoubles(a.newPrice)} ₽ (${formatChange(a.changePercent)})`;
  const price = a.newPrice ?? a.oldPrice;
  return `${flat}${what}${price === null ? '' : `, ${formatRoubles(price)} ₽`}`;
}
