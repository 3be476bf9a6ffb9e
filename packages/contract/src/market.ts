import { z } from 'zod';
import { idSchema, intInRange } from './api.js';
import { dataDateSchema } from './dates.js';
import {
  discountPeriodSchema,
  EVENT_KINDS,
  eventKindSchema,
  facingSchema,
  flatStatusSchema,
  ROOM_GROUPS,
  statsStatusSchema,
} from './enums.js';
import { flatOfferSchema } from './offer.js';
import { safeText } from './text.js';

const optionalId = (name: string) => idSchema(name).optional();
const rooms = intInRange('rooms', 0, 50);

/** «Рынок»'s first view: the last 90 days to today (the web's default period; the server computes it ahead). */
export const MARKET_FIRST_VIEW_DAYS = 90;

// --- discounts (§4.3) ---
/**
 * What a discount is measured from: `history` — the flat's highest price in the period's window (§4.3);
 * `developer` — the crossed-out price the developer shows (§11.4). Never mixed.
 */
export const DISCOUNT_BASES = ['history', 'developer'] as const;
export type DiscountBasis = (typeof DISCOUNT_BASES)[number];
export const DISCOUNT_BASIS_LABELS: Record<DiscountBasis, string> = {
  history: 'по истории цен',
  developer: 'по данным застройщика',
};
const discountBasis = z
  .enum(DISCOUNT_BASES, { message: `basis: одно из ${DISCOUNT_BASES.join(', ')}` })
  .default('history');

export const discountRequestSchema = z.object({
  period: discountPeriodSchema,
  basis: discountBasis,
  date: dataDateSchema.optional(),
  developerId: optionalId('developerId'),
  projectId: optionalId('projectId'),
  rooms: rooms.optional(),
  limit: intInRange('limit', 1, 1000).default(100),
  /** §10.2: `AVAILABLE` leaves reserved lots out */
  status: statsStatusSchema.default('ALL'),
});
export type DiscountRequest = z.input<typeof discountRequestSchema>;

export const discountFlatSchema = z.object({
  flatId: z.number().int(),
  developerName: z.string(),
  projectId: z.number().int(),
  projectName: z.string(),
  building: z.string(),
  rooms: z.number().int(),
  area: z.number(),
  floor: z.number().int().nullable(),
  facing: facingSchema,
  refPrice: z.number(),
  price: z.number(),
  refMeterPrice: z.number(),
  meterPrice: z.number(),
  discountPercent: z.number(),
});
export type DiscountFlat = z.infer<typeof discountFlatSchema>;
export const discountResponseSchema = z.object({
  date: z.string().nullable(),
  rows: z.array(discountFlatSchema),
});
export type DiscountResponse = z.infer<typeof discountResponseSchema>;

export const discountProjectRequestSchema = z.object({
  period: discountPeriodSchema,
  basis: discountBasis,
  date: dataDateSchema.optional(),
  developerId: optionalId('developerId'),
  status: statsStatusSchema.default('ALL'),
});
export type DiscountProjectRequest = z.input<typeof discountProjectRequestSchema>;
export const discountProjectRowSchema = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  developerId: z.number().int(),
  developerName: z.string(),
  activeFlats: z.number().int(),
  discountedFlats: z.number().int(),
  maxDiscountPercent: z.number(),
  avgDiscountPercent: z.number(),
  avgMeterPrice: z.number().nullable(),
});
export type DiscountProjectRow = z.infer<typeof discountProjectRowSchema>;
export const discountProjectResponseSchema = z.object({
  date: z.string().nullable(),
  rows: z.array(discountProjectRowSchema),
});
export type DiscountProjectResponse = z.infer<typeof discountProjectResponseSchema>;

// --- flat card ---
export const flatQuerySchema = z.object({ flatId: idSchema('flatId') });
export const flatParamsSchema = z.object({ flatId: idSchema('flatId') });
export const flatRecordSchema = z.object({
  building: z.string(),
  section: z.string().nullable(),
  floor: z.number().int().nullable(),
  number: z.string().nullable(),
  rooms: z.number().int(),
  area: z.number(),
  facing: facingSchema,
  settlementDate: z.string().nullable(),
  price: z.number(),
  basePrice: z.number().nullable(),
  meterPrice: z.number(),
  /** the status of the latest list that has the flat (null: the list gives none) */
  listingStatus: flatStatusSchema.nullable(),
});
/** What the lists said of a flat, from one change to the next (DESIGN §10.2): on sale, reserved, not listed. */
export const LISTING_STATES = ['AVAILABLE', 'RESERVED', 'ABSENT'] as const;
export const flatCardSchema = z.object({
  flatId: z.number().int(),
  externalId: z.string(),
  developerId: z.number().int(),
  developerName: z.string(),
  projectId: z.number().int(),
  projectName: z.string(),
  record: flatRecordSchema,
  status: z.enum(['ACTIVE', 'REMOVED']),
  firstSeen: z.string(),
  lastSeen: z.string(),
  priceHistory: z.array(z.object({ date: z.string(), price: z.number(), meterPrice: z.number() })),
  /** one point per change of what the lists said: on sale, reserved, not listed (a list without a status: on sale) */
  statusHistory: z.array(z.object({ date: z.string(), state: z.enum(LISTING_STATES) })),
  /** one point per change of the listed area (§10.3 AREA_CHANGED), the first listing included */
  areaHistory: z.array(z.object({ date: z.string(), area: z.number() })),
  /** what the developer offers in its latest list beside the price (§11.4) */
  offer: flatOfferSchema.optional(),
  /** the developer's own discount of the latest list, %: (oldPrice − price) / oldPrice; never §4.3's */
  developerDiscount: z.number().nullable().optional(),
  /** one point per change of the offer (the first listing with one included) */
  offerHistory: z.array(z.object({ date: z.string(), offer: flatOfferSchema })).optional(),
  /** where the flat's ppm stands among its project's flats of its room group on sale on the project's last
   *  day with data (% of them at or below it); null when the flat is not on sale then */
  percentile: z
    .object({ value: z.number(), group: z.enum(ROOM_GROUPS), of: z.number().int(), date: z.string() })
    .nullable()
    .optional(),
});
export type FlatCard = z.infer<typeof flatCardSchema>;

export interface FlatPriceChange {
  date: string;
  price: number;
  meterPrice: number;
  /** change from the previous price, % rounded to 2 decimals; null for the first listing */
  changePercent: number | null;
}

/** A flat's price changes with the percent of each, oldest first (the card's page and the bot's /flat). */
export function flatPriceChanges(card: Pick<FlatCard, 'priceHistory'>): FlatPriceChange[] {
  return card.priceHistory.map((p, i) => {
    const previous = card.priceHistory[i - 1];
    return {
      ...p,
      changePercent: previous
        ? Math.round(((p.price - previous.price) / previous.price) * 10_000) / 100
        : null,
    };
  });
}

// --- price changes (§4.4 events) ---
export const PRICE_CHANGE_SORTS = [
  'date',
  '-date',
  'changePercent',
  '-changePercent',
  'newPrice',
  '-newPrice',
] as const;
export const priceChangesQuerySchema = z.object({
  /** default: the last 30 days of data */
  from: dataDateSchema.optional(),
  to: dataDateSchema.optional(),
  developerId: optionalId('developerId'),
  projectId: optionalId('projectId'),
  kind: eventKindSchema.optional(),
  sort: z.enum(PRICE_CHANGE_SORTS).default('-date'),
  page: intInRange('page', 1, 1_000_000, 'целое число ≥ 1').default(1),
  pageSize: intInRange('pageSize', 1, 500).default(50),
});
export type PriceChangesQuery = z.input<typeof priceChangesQuerySchema>;
/** The query once validated (defaults applied): what the server filters by and the client sends. */
export type PriceChangesParams = z.output<typeof priceChangesQuerySchema>;
/** An event of §4.4 as the summaries show it: the flat's record and the price change. */
export const summaryEventSchema = z.object({
  kind: z.enum(EVENT_KINDS),
  flatId: z.number().int(),
  building: z.string(),
  rooms: z.number().int(),
  area: z.number(),
  floor: z.number().int().nullable(),
  facing: facingSchema,
  oldPrice: z.number().nullable(),
  newPrice: z.number().nullable(),
  changePercent: z.number().nullable(),
  /** AREA_CHANGED: the area before (the new one is `area`); null for other kinds */
  oldArea: z.number().nullable(),
  /** days since the project's previous snapshot (DESIGN §10.1); null on its first */
  gapDays: z.number().int().nullable(),
  /** a price change seen across a gap without data (gapDays > MAX_CARRY_DAYS): it accumulated unseen */
  afterGap: z.boolean(),
});
export const priceChangeSchema = summaryEventSchema.extend({
  date: z.string(),
  projectId: z.number().int(),
  projectName: z.string(),
  developerName: z.string(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;
export const priceChangesResponseSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  rows: z.array(priceChangeSchema),
});
export type PriceChangesResponse = z.infer<typeof priceChangesResponseSchema>;

// --- search ---
export const searchQuerySchema = z.object({
  // a search may hold a tab (pasted from a table): whitespace, as a space
  q: safeText('q', 100, true).trim().pipe(z.string().min(1, 'q: введите запрос')),
});
export const searchResponseSchema = z.object({
  developers: z.array(z.object({ id: z.number().int(), name: z.string() })),
  projects: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      developerId: z.number().int(),
      developerName: z.string(),
    }),
  ),
  flats: z.array(
    z.object({
      flatId: z.number().int(),
      externalId: z.string(),
      projectId: z.number().int(),
      projectName: z.string(),
      developerName: z.string(),
    }),
  ),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

// --- daily summaries (§4.4) ---
export const summariesQuerySchema = z.object({
  limit: intInRange('limit', 1, 100).default(30),
  before: dataDateSchema.optional(),
});
export const summaryListItemSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  projects: z.number().int(),
  newFlats: z.number().int(),
  removedFlats: z.number().int(),
  priceUp: z.number().int(),
  priceDown: z.number().int(),
  /** flats whose area changed (DESIGN §10.3) */
  areaChanged: z.number().int(),
  /** flats whose developer's promotion or crossed-out price appeared, went (DESIGN §11.4) */
  promoStarted: z.number().int(),
  promoEnded: z.number().int(),
  /** some project's list of the day was partial (DESIGN §10.4) */
  partial: z.boolean(),
});
export type SummaryListItem = z.infer<typeof summaryListItemSchema>;
export const summaryListSchema = z.array(summaryListItemSchema);
export const summaryParamsSchema = z.object({ id: idSchema('id') });
export const summaryProjectParamsSchema = z.object({ id: idSchema('id'), projectId: idSchema('projectId') });
export const summaryProjectRowSchema = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  developerName: z.string(),
  isNewProject: z.boolean(),
  flatsCount: z.number().int(),
  newFlats: z.number().int(),
  removedFlats: z.number().int(),
  priceUp: z.number().int(),
  priceDown: z.number().int(),
  avgChangePercent: z.number().nullable(),
  avgMeterPrice: z.number().nullable(),
  /** flats whose area changed (DESIGN §10.3) */
  areaChanged: z.number().int(),
  /** flats whose developer's promotion or crossed-out price appeared, went (DESIGN §11.4) */
  promoStarted: z.number().int(),
  promoEnded: z.number().int(),
  /** the day's list was partial (DESIGN §10.4): flats it left out kept their record, none was removed */
  partial: z.boolean(),
  /** days since the project's previous snapshot (DESIGN §10.1); null on its first */
  gapDays: z.number().int().nullable(),
  /** the snapshot came after a gap without data (gapDays > MAX_CARRY_DAYS) */
  afterGap: z.boolean(),
});
export type SummaryProjectRow = z.infer<typeof summaryProjectRowSchema>;
export const summarySchema = z.object({
  id: z.number().int(),
  date: z.string(),
  projects: z.array(summaryProjectRowSchema),
});
export type Summary = z.infer<typeof summarySchema>;
export const summaryProjectSchema = z.object({
  summary: z.object({ id: z.number().int(), date: z.string() }),
  project: summaryProjectRowSchema,
  events: z.array(summaryEventSchema),
});
export type SummaryProject = z.infer<typeof summaryProjectSchema>;

// --- data quality (issue 14) ---
export const projectQualityParamsSchema = z.object({ id: idSchema('id') });
export const projectQualitySchema = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  /** the carry-forward limit C the report was made with */
  maxCarryDays: z.number().int(),
  snapshots: z.object({ count: z.number().int(), first: z.string().nullable(), last: z.string().nullable() }),
  /** spans without data: consecutive snapshots more than C days apart */
  gaps: z.array(z.object({ after: z.string(), before: z.string(), days: z.number().int() })),
  /** snapshots with fewer flats than half the usual count (DESIGN §10.4) */
  partialScans: z.array(z.object({ date: z.string(), flats: z.number().int(), median: z.number() })),
  /** every snapshot, newest first: its flats and whether it is partial (or was imported as complete) */
  snapshotList: z.array(
    z.object({ date: z.string(), flats: z.number().int(), partial: z.boolean(), complete: z.boolean() }),
  ),
  /** flats whose area changed between lists */
  areaChangedFlats: z.number().int(),
  /** lots of the last list priced per m² below half or above twice the list's median */
  ppmOutliers: z.number().int(),
  /** shares of the last list, % (null without a list) */
  reservedPercent: z.number().nullable(),
  noSettlementPercent: z.number().nullable(),
});
export type ProjectQuality = z.infer<typeof projectQualitySchema>;
