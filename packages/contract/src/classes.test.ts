import { describe, expect, it } from 'vitest';
import { OTHER_BAND, PRICE_BANDS, priceBandOf, priceClassIn, projectClass } from './classes.js';
import { PRICE_CLASSES } from './pace.js';

const place = (region: string | null, city: string | null = null) => ({ region, city });

describe('a project’s class by its region’s price bands (DESIGN §12.3)', () => {
  it('places Yekaterinburg by its own bands, not Moscow’s (the issue’s two projects)', () => {
    const ekb = place('Свердловская область', 'Екатеринбург');
    expect(priceClassIn(ekb, 458_000)).toBe('premium');
    expect(priceClassIn(ekb, 281_000)).toBe('business');
    expect(priceClassIn(place('Москва', 'Москва'), 458_000)).toBe('business');
    expect(priceClassIn(place('Москва', 'Москва'), 281_000)).toBe('comfort');
    expect(priceClassIn(ekb, null)).toBeNull();
  });

  it('finds the band by region in its spellings, else by city, else the other regions’', () => {
    expect(priceBandOf(place('г. Москва')).name).toBe('Москва');
    expect(priceBandOf(place('город Москва')).name).toBe('Москва');
    expect(priceBandOf(place('МОСКОВСКАЯ обл.')).name).toBe('Московская область');
    expect(priceBandOf(place(null, 'Екатеринбург')).name).toMatch(/Свердловская/);
    expect(priceBandOf(place('Республика Татарстан')).name).toMatch(/Татарстан/);
    expect(priceBandOf(place('Тульская область', 'Тула'))).toBe(OTHER_BAND);
    expect(priceBandOf(undefined)).toBe(OTHER_BAND);
  });

  it('every band’s floors rise from comfort to premium; each floor is the lowest price of its class', () => {
    for (const band of [...PRICE_BANDS, OTHER_BAND]) {
      expect(band.floors.comfort).toBeLessThan(band.floors.business);
      expect(band.floors.business).toBeLessThan(band.floors.premium);
      const where = { region: band.regions[0] ?? 'Нигде', city: null };
      for (const c of ['comfort', 'business', 'premium'] as const) {
        expect(priceClassIn(where, band.floors[c])).toBe(c);
        expect(priceClassIn(where, band.floors[c] - 1)).toBe(PRICE_CLASSES[PRICE_CLASSES.indexOf(c) - 1]);
      }
    }
  });

  it('a hand edit wins, then the registry’s class (Элит counts as premium), then the price', () => {
    const moscow = place('Москва');
    expect(projectClass('economy', 'Бизнес', moscow, 900_000)).toEqual({
      priceClass: 'economy',
      classOrigin: 'hand',
    });
    expect(projectClass(null, 'Элит', moscow, 100_000)).toEqual({
      priceClass: 'premium',
      classOrigin: 'registry',
    });
    expect(projectClass(null, null, moscow, 500_000)).toEqual({
      priceClass: 'business',
      classOrigin: 'price',
    });
    expect(projectClass(null, null, moscow, null)).toEqual({ priceClass: null, classOrigin: null });
    // what no origin knows is none of them
    expect(projectClass('люкс', 'Люкс', moscow, 300_000)).toEqual({
      priceClass: 'comfort',
      classOrigin: 'price',
    });
  });
});
