import {
  CONTROL_CHARACTERS_MESSAGE,
  type FlatOffer,
  hasControlCharacters,
  OFFER_LIMITS,
  offerText,
} from '@cena-metra/contract';
import { cleanName } from './normalise.js';

/** Bands of an offered price: the list price's (docs/security.md). */
export interface PriceBands {
  minPrice: number;
  maxPrice: number;
  minMeterPrice: number;
  maxMeterPrice: number;
}

type Warn = (field: string, message: string, value: unknown) => void;

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

function roubles(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.replace(/[\s\u00a0₽]|руб\.?/g, '').replace(',', '.'));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * What a flat's record offers beside its price (DESIGN §11.4), as the record's canonical text: `oldPrice`,
 * `offerPrices` {term: price}, `promo`, `bookingCost`, `planUrl`. A bad value is refused with its field
 * named (a warning of the import) and the rest of the flat kept; null when nothing is offered.
 */
export function readOffer(
  f: Record<string, unknown>,
  price: number,
  area: number,
  bands: PriceBands,
  warn: Warn,
): string | null {
  if (
    !given(f.oldPrice) &&
    !given(f.offerPrices) &&
    !given(f.promo) &&
    !given(f.bookingCost) &&
    !given(f.planUrl)
  )
    return null;
  const offer: FlatOffer = { oldPrice: null, offerPrices: {}, promo: null, bookingCost: null, planUrl: null };
  const inBands = (field: string, value: unknown): number | undefined => {
    const n = roubles(value);
    if (n === undefined || !Number.isInteger(n) || n < bands.minPrice || n > bands.maxPrice) {
      warn(field, `должно быть целым числом рублей от ${bands.minPrice} до ${bands.maxPrice}`, value);
      return undefined;
    }
    const ppm = n / area;
    if (ppm < bands.minMeterPrice || ppm > bands.maxMeterPrice) {
      warn(field, `цена м² ${Math.round(ppm)} ₽ вне допустимого диапазона`, value);
      return undefined;
    }
    return n;
  };
  if (given(f.oldPrice)) {
    const old = inBands('oldPrice', f.oldPrice);
    if (old !== undefined && old < price) warn('oldPrice', 'старая цена ниже цены квартиры', f.oldPrice);
    else if (old !== undefined) offer.oldPrice = old;
  }
  if (given(f.offerPrices)) {
    if (typeof f.offerPrices !== 'object' || Array.isArray(f.offerPrices))
      warn('offerPrices', 'должно быть объектом «условие оплаты: цена»', f.offerPrices);
    else
      for (const [rawTerm, value] of Object.entries(f.offerPrices as Record<string, unknown>)) {
        const term = cleanName(rawTerm);
        if (!term || term.length > OFFER_LIMITS.maxTerm || hasControlCharacters(rawTerm, true)) {
          warn('offerPrices', `условие оплаты — текст до ${OFFER_LIMITS.maxTerm} символов`, rawTerm);
          continue;
        }
        if (!given(value)) continue;
        if (Object.keys(offer.offerPrices).length >= OFFER_LIMITS.maxTerms) {
          warn('offerPrices', `не больше ${OFFER_LIMITS.maxTerms} условий оплаты`, rawTerm);
          break;
        }
        const n = inBands(`offerPrices.${term}`, value);
        if (n !== undefined) offer.offerPrices[term] = n;
      }
  }
  if (given(f.promo)) {
    const promo = typeof f.promo === 'string' ? cleanName(f.promo) : undefined;
    if (promo === undefined) warn('promo', 'должно быть строкой', f.promo);
    else if (hasControlCharacters(promo) || hasControlCharacters(f.promo as string, true))
      warn('promo', CONTROL_CHARACTERS_MESSAGE, f.promo);
    else if (promo.length > OFFER_LIMITS.maxPromo)
      warn('promo', `не длиннее ${OFFER_LIMITS.maxPromo} символов`, f.promo);
    else if (promo) offer.promo = promo;
  }
  if (given(f.bookingCost)) {
    const n = roubles(f.bookingCost);
    if (n === undefined || !Number.isInteger(n) || n < 0 || n > price)
      warn('bookingCost', 'должно быть целым числом рублей от 0 до цены квартиры', f.bookingCost);
    else offer.bookingCost = n;
  }
  if (given(f.planUrl)) {
    const url = typeof f.planUrl === 'string' ? f.planUrl.trim() : '';
    if (!/^https?:\/\/[^\s]+$/i.test(url) || url.length > OFFER_LIMITS.maxUrl || hasControlCharacters(url))
      warn('planUrl', `должно быть адресом http(s) до ${OFFER_LIMITS.maxUrl} символов`, f.planUrl);
    else offer.planUrl = url;
  }
  return offerText(offer);
}
