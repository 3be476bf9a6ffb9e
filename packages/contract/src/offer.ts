import { z } from 'zod';

// --- prices as offered (DESIGN §11.4) ---

/** Payment terms a developer prices separately; a source's own label is kept verbatim beside these. */
export const PAYMENT_TERMS = ['cash', 'mortgage', 'familyMortgage', 'installment', 'tradeIn'] as const;
export type PaymentTerm = (typeof PAYMENT_TERMS)[number];
export const PAYMENT_TERM_LABELS: Record<PaymentTerm, string> = {
  cash: '100 % оплата',
  mortgage: 'Ипотека',
  familyMortgage: 'Семейная ипотека',
  installment: 'Рассрочка',
  tradeIn: 'Трейд-ин',
};
/** A payment term's label: ours for the known ones, the source's own text for the rest. */
export const paymentTermLabel = (term: string): string =>
  (PAYMENT_TERM_LABELS as Record<string, string>)[term] ?? term;

export const OFFER_LIMITS = { maxPromo: 200, maxUrl: 500, maxTerm: 50, maxTerms: 10 } as const;

/**
 * What a developer offers beside the list price: the crossed-out price, prices by payment term, the
 * promotion's text, the booking fee and the plan's picture. Every field may be missing.
 */
export const flatOfferSchema = z.object({
  oldPrice: z.number().int().nullable(),
  offerPrices: z.record(z.string(), z.number().int()),
  promo: z.string().nullable(),
  bookingCost: z.number().int().nullable(),
  planUrl: z.string().nullable(),
});
export type FlatOffer = z.infer<typeof flatOfferSchema>;

export const EMPTY_OFFER: FlatOffer = {
  oldPrice: null,
  offerPrices: {},
  promo: null,
  bookingCost: null,
  planUrl: null,
};

/** An offer as one canonical text (fields in one order, terms sorted, empty ones left out); null: none. */
export function offerText(offer: FlatOffer): string | null {
  const out: Record<string, unknown> = {};
  if (offer.oldPrice !== null) out.oldPrice = offer.oldPrice;
  const terms = Object.keys(offer.offerPrices).sort();
  if (terms.length) out.offerPrices = Object.fromEntries(terms.map((t) => [t, offer.offerPrices[t]]));
  if (offer.promo !== null) out.promo = offer.promo;
  if (offer.bookingCost !== null) out.bookingCost = offer.bookingCost;
  if (offer.planUrl !== null) out.planUrl = offer.planUrl;
  return Object.keys(out).length ? JSON.stringify(out) : null;
}

/** The offer of a canonical text (null: nothing offered beside the price). */
export function offerOf(text: string | null): FlatOffer {
  if (!text) return EMPTY_OFFER;
  const o = JSON.parse(text) as Partial<FlatOffer>;
  return {
    oldPrice: o.oldPrice ?? null,
    offerPrices: o.offerPrices ?? {},
    promo: o.promo ?? null,
    bookingCost: o.bookingCost ?? null,
    planUrl: o.planUrl ?? null,
  };
}

/** Avg ppm by payment term of a project over a range (`POST /api/project/offer-prices`, DESIGN §11.4). */
export const offerSeriesResponseSchema = z.object({
  terms: z.array(
    z.object({
      /** the term as the lists name it (`cash`, `mortgage`…, or a source's own label) */
      term: z.string(),
      label: z.string(),
      /** a point per snapshot day on which some active flat is priced on the term: sum of those prices / sum
       *  of their areas, and how many flats */
      points: z.array(z.object({ date: z.string(), avgMeterPrice: z.number(), count: z.number().int() })),
    }),
  ),
});
export type OfferSeriesResponse = z.infer<typeof offerSeriesResponseSchema>;
