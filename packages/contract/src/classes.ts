import { z } from 'zod';
import { CLASS_ORIGINS, type ClassOrigin, PRICE_CLASSES, type PriceClass } from './pace.js';
import { HOUSING_CLASS_NAMES, type HousingClassName, PRICE_CLASS_OF_HOUSING } from './registry.js';

/**
 * The price bands of the market's classes by region (DESIGN §12.3, docs/registry.md «Классы»): the floor of
 * comfort, business and premium, ₽/m² of the weighted average price of the flats on sale; below comfort is
 * economy. A project whose class neither a hand nor the registry gives is placed by its region's bands —
 * Moscow's floors are twice Yekaterinburg's, one table for the country misplaced every other city. Our
 * calibration from the market's public reviews of 2025–2026; edited here, and the docs with it.
 */
export interface PriceBand {
  name: string;
  /** region names it is (normalised: lower case, ё as е, no «г.»), matched as a prefix */
  regions: string[];
  /** cities that are it when the region is not given */
  cities: string[];
  floors: Record<Exclude<PriceClass, 'economy'>, number>;
}

export const PRICE_BANDS: PriceBand[] = [
  {
    name: 'Москва',
    regions: ['москва'],
    cities: ['москва'],
    floors: { comfort: 250_000, business: 450_000, premium: 700_000 },
  },
  {
    name: 'Санкт-Петербург',
    regions: ['санкт-петербург'],
    cities: ['санкт-петербург'],
    floors: { comfort: 180_000, business: 300_000, premium: 500_000 },
  },
  {
    name: 'Московская область',
    regions: ['московская'],
    cities: [],
    floors: { comfort: 150_000, business: 250_000, premium: 400_000 },
  },
  {
    name: 'Ленинградская область',
    regions: ['ленинградская'],
    cities: [],
    floors: { comfort: 120_000, business: 200_000, premium: 350_000 },
  },
  {
    name: 'Свердловская область (Екатеринбург)',
    regions: ['свердловская'],
    cities: ['екатеринбург'],
    floors: { comfort: 130_000, business: 220_000, premium: 350_000 },
  },
  {
    name: 'Татарстан (Казань)',
    regions: ['татарстан', 'республика татарстан'],
    cities: ['казань'],
    floors: { comfort: 130_000, business: 220_000, premium: 350_000 },
  },
  {
    name: 'Краснодарский край',
    regions: ['краснодарский'],
    cities: ['краснодар', 'сочи'],
    floors: { comfort: 120_000, business: 200_000, premium: 350_000 },
  },
  {
    name: 'Новосибирская область',
    regions: ['новосибирская'],
    cities: ['новосибирск'],
    floors: { comfort: 120_000, business: 200_000, premium: 320_000 },
  },
];

/** Every other region. */
export const OTHER_BAND: PriceBand = {
  name: 'Другие регионы',
  regions: [],
  cities: [],
  floors: { comfort: 100_000, business: 180_000, premium: 300_000 },
};

const normalised = (s: string | null | undefined) =>
  (s ?? '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/^(г\.|город)\s*/, '')
    .trim();

/** The bands of a place: by its region, else its city, else the other regions'. */
export function priceBandOf(place: { region: string | null; city: string | null } | undefined): PriceBand {
  const region = normalised(place?.region);
  if (region) {
    const found = PRICE_BANDS.find((b) => b.regions.some((r) => region.startsWith(r)));
    if (found) return found;
  }
  const city = normalised(place?.city);
  return (city && PRICE_BANDS.find((b) => b.cities.includes(city))) || OTHER_BAND;
}

/** The class of an average ppm in a place, by its region's bands; null without a price. */
export function priceClassIn(
  place: { region: string | null; city: string | null } | undefined,
  avgMeterPrice: number | null,
): PriceClass | null {
  if (avgMeterPrice === null) return null;
  const { floors } = priceBandOf(place);
  let out: PriceClass = 'economy';
  for (const c of PRICE_CLASSES) if (c !== 'economy' && avgMeterPrice >= floors[c]) out = c;
  return out;
}

/** A project's class and its origin: by hand, else the registry's, else by price in its region. */
export function projectClass(
  hand: string | null,
  registry: string | null,
  place: { region: string | null; city: string | null } | undefined,
  avgMeterPrice: number | null,
): { priceClass: PriceClass | null; classOrigin: ClassOrigin | null } {
  if (hand && (PRICE_CLASSES as readonly string[]).includes(hand))
    return { priceClass: hand as PriceClass, classOrigin: 'hand' };
  if (registry && (HOUSING_CLASS_NAMES as readonly string[]).includes(registry))
    return { priceClass: PRICE_CLASS_OF_HOUSING[registry as HousingClassName], classOrigin: 'registry' };
  const priceClass = priceClassIn(place, avgMeterPrice);
  return { priceClass, classOrigin: priceClass === null ? null : 'price' };
}

/** A project's class as «Рынок» shows it, its origin, and what each origin says (the dashboard's line). */
export const projectClassSchema = z.object({
  projectId: z.number().int(),
  priceClass: z.enum(PRICE_CLASSES).nullable(),
  classOrigin: z.enum(CLASS_ORIGINS).nullable(),
  /** set by hand (wins) */
  hand: z.enum(PRICE_CLASSES).nullable(),
  /** the registry's (most of its objects' flats) */
  registry: z.enum(HOUSING_CLASS_NAMES).nullable(),
  /** the average ppm of its last day with data, and its class by its region's bands */
  avgMeterPrice: z.number().nullable(),
  byPrice: z.enum(PRICE_CLASSES).nullable(),
  band: z.object({
    name: z.string(),
    floors: z.object({ comfort: z.number(), business: z.number(), premium: z.number() }),
  }),
});
export type ProjectClass = z.infer<typeof projectClassSchema>;

/** A class set by hand, or (null) given back to the registry and the price bands. */
export const projectClassEditSchema = z
  .object({
    priceClass: z
      .enum(PRICE_CLASSES, { message: `priceClass: одно из ${PRICE_CLASSES.join(', ')} или null` })
      .nullable(),
  })
  .strict();
export type ProjectClassEdit = z.infer<typeof projectClassEditSchema>;
