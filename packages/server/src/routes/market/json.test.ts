import type { MarketResponse, MarketRow } from '@cena-metra/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketBody } from './json.js';

const figure = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double(),
  fc.constantFrom(0, -0, 4.93, 302_601.05, 1e21, 5e-7),
);
const name = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    'Проект «Озёрный»',
    'ЖК "Квартал"',
    'a\\b',
    'строка\nвторая',
    '\u2028',
    '\ud83c\udfe0 дом',
    '\ud800',
  ),
);

const row: fc.Arbitrary<MarketRow> = fc.record({
  id: fc.integer(),
  name,
  developerId: fc.integer(),
  developerName: name,
  projects: fc.nat(),
  date: fc.constantFrom('2026-11-23', '2025-01-01'),
  stock: fc.nat(),
  new30: fc.nat(),
  gone30: fc.nat(),
  absorption: figure,
  monthsOfSupply: figure,
  medianDaysOnMarket: figure,
  avgMeterPrice: figure,
  priceClass: fc.constantFrom(null, 'economy', 'comfort', 'business', 'premium', 'elite'),
  indexChange: figure.map((v) => v ?? 0),
}) as fc.Arbitrary<MarketRow>;

const response: fc.Arbitrary<MarketResponse> = fc.record({
  from: fc.constant('2026-08-20'),
  to: fc.constant('2026-11-23'),
  projects: fc.array(row, { maxLength: 40 }),
  developers: fc.array(row, { maxLength: 10 }),
  total: fc.option(row, { nil: null }),
  places: fc.option(
    fc.record({
      by: fc.constantFrom('district', 'city', 'region', 'station'),
      rows: fc.array(row, { maxLength: 5 }),
    }),
    { nil: null },
  ),
}) as fc.Arbitrary<MarketResponse>;

describe('the market ranking body', () => {
  it('is byte for byte what JSON.stringify writes, whatever the names and figures', () => {
    fc.assert(
      fc.property(response, (data) => {
        expect(marketBody(data).toString('utf8')).toBe(JSON.stringify(data));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a row with a place whole, and grows past its first buffer', () => {
    const place = {
      region: 'Москва',
      city: 'Москва',
      district: 'Академический',
      address: null,
      latitude: 55.69,
      longitude: 37.58,
      stations: [{ name: 'Академическая', minutes: 7, mode: 'foot' as const }],
    };
    const one: MarketRow = {
      id: 1,
      name: 'Я'.repeat(200_000),
      developerId: 2,
      developerName: 'ПИК',
      projects: 1,
      date: '2026-11-23',
      stock: 10,
      new30: 1,
      gone30: 2,
      absorption: null,
      monthsOfSupply: 5,
      medianDaysOnMarket: 30.5,
      avgMeterPrice: 250_000.5,
      priceClass: 'comfort',
      indexChange: -1.25,
      place,
    };
    const data: MarketResponse = {
      from: '2026-01-01',
      to: '2026-11-23',
      projects: [one],
      developers: [],
      total: one,
      places: null,
    };
    const body = marketBody(data);
    expect(body.toString('utf8')).toBe(JSON.stringify(data));
    expect(JSON.parse(body.toString('utf8')).projects[0].place.stations[0].name).toBe('Академическая');
  });
});
