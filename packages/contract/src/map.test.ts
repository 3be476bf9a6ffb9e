import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MARKET_MAP_COLUMNS,
  type MarketMapResponse,
  marketMapResponseSchema,
  parseMarketMap,
} from './map.js';
import { BROKEN, broken, places } from './values.testing.js';

// The map's columns (issue 46): the fast door gives what the schema gives, on answers as the server makes
// them and on the same answers broken at any place.

const name = fc.constantFrom('ЖК «Речной берег»', 'Проект 1', 'Озёрный', '');
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const point = fc.record({
  id: fc.integer({ min: -1e6, max: 1e6 }),
  developerId: fc.nat(1000),
  name,
  developer: fc.nat(2),
  place: fc.nat(1),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  size: fc.nat(5000),
  avgMeterPrice: maybe(fc.double({ min: 1, max: 2e6, noNaN: true })),
  indexChange: maybe(fc.double({ min: -50, max: 50, noNaN: true })),
  absorption: maybe(fc.double({ min: 0, max: 100, noNaN: true })),
  objects: maybe(fc.nat(40)),
  soldShare: maybe(fc.double({ min: 0, max: 1, noNaN: true })),
  ready: maybe(fc.constantFrom('2027-12-31', '2026-06-30')),
  address: maybe(fc.constantFrom('г. Москва, ул. Речная, 1', 'Казань')),
});
const answer: fc.Arbitrary<MarketMapResponse> = fc
  .record({
    points: fc.array(point, { maxLength: 6 }),
    unplaced: fc.array(
      fc.record({ id: fc.integer(), name, developerId: fc.nat(), registryOnly: fc.boolean() }),
      { maxLength: 2 },
    ),
    registryOnly: fc.nat(10),
  })
  .map(({ points, unplaced, registryOnly }) => {
    const columns = Object.fromEntries(
      MARKET_MAP_COLUMNS.map((key) => [key, points.map((p) => p[key])]),
    ) as unknown as Pick<MarketMapResponse, (typeof MARKET_MAP_COLUMNS)[number]>;
    return {
      ...columns,
      developers: ['ПИК', 'Самолёт', 'Застройщик 7'],
      places: [
        { city: null, district: null, station: null },
        { city: 'Москва', district: 'Академический', station: 'Профсоюзная' },
      ],
      unplaced,
      registryOnly,
    };
  });

describe('«Рынок»’s map in columns', () => {
  it('fast door = schema on answers as made: the same data', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const sent = JSON.parse(JSON.stringify(a));
        const fast = parseMarketMap(sent);
        const slow = marketMapResponseSchema.safeParse(sent);
        expect(slow.success).toBe(true);
        expect(fast.success).toBe(true);
        expect(fast.data).toEqual(slow.data);
      }),
      { numRuns: 300 },
    );
  });

  it('fast door = schema on answers broken at any place: the same success, data or first issue', () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.constantFrom(...BROKEN), (a, n, how) => {
        const all = places(a);
        const v = broken(a, all[n % all.length], how);
        const fast = parseMarketMap(v);
        const slow = marketMapResponseSchema.safeParse(v);
        expect(fast.success).toBe(slow.success);
        if (slow.success) expect(fast.data).toEqual(slow.data);
        else expect(fast.error?.issues[0]).toEqual(slow.error.issues[0]);
      }),
      { numRuns: 3000 },
    );
  });

  it('a column one point short, or a developer out of the list, is refused by its name', () => {
    const a = fc.sample(
      answer.filter((x) => x.id.length > 1),
      { numRuns: 1, seed: 5 },
    )[0];
    const short = parseMarketMap({ ...a, latitude: a.latitude.slice(1) });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0].path).toEqual(['latitude']);
    const far = parseMarketMap({ ...a, developer: a.developer.map(() => 3) });
    expect(far.success).toBe(false);
    expect(far.error?.issues[0].path).toEqual(['developer']);
  });
});
