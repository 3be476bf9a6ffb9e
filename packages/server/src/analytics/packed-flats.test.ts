import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedFlats } from './packed-flats.js';
import type { FlatOnDay } from './stats.js';

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const flat: fc.Arbitrary<FlatOnDay> = fc.record({
  flatId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  rec: fc.record({
    building: fc.string({ minLength: 1, maxLength: 8 }),
    section: maybe(fc.constantFrom('1', '2', 'А', 'корпус 3')),
    floor: maybe(fc.integer({ min: -3, max: 120 })),
    number: maybe(fc.string({ maxLength: 6 })),
    rooms: fc.integer({ min: 0, max: 9 }),
    area: fc.double({ min: 10, max: 500, noNaN: true }),
    facing: fc.constantFrom('NONE', 'WHITE', 'FULL', 'UNKNOWN'),
    settlementDate: maybe(fc.constantFrom('2026-03-31', '2027-12-31')),
    price: fc.integer({ min: 1, max: 2_000_000_000 }),
    basePrice: maybe(fc.double({ min: 1, max: 2e9, noNaN: true })),
    status: maybe(fc.constantFrom('AVAILABLE', 'BOOKED')),
    offer: maybe(fc.constantFrom('{"promo":"Скидка 5 %"}', '{"oldPrice":9000000}')),
  }),
  refDay: fc.integer({ min: 0, max: 2_000_000_000 }),
  ref7Days: fc.integer({ min: 0, max: 2_000_000_000 }),
  ref1Month: fc.double({ min: 0, max: 2e9, noNaN: true }),
  ref1Year: fc.integer({ min: 0, max: 2_000_000_000 }),
}) as fc.Arbitrary<FlatOnDay>;

describe('PackedFlats', () => {
  it('gives back exactly the flats it packed: numbers to the bit, nulls, strings, order', () => {
    fc.assert(
      fc.property(fc.array(flat, { maxLength: 60 }), (generated) => {
        const flats = structuredClone(generated); // plain objects, as the engine makes them
        const packed = PackedFlats.pack(flats);
        expect(packed.length).toBe(flats.length);
        const back = packed.unpack();
        expect(back).toStrictEqual(flats);
        // fresh objects each time: a caller sorting or changing them cannot touch the cache
        if (flats.length) expect(packed.unpack()[0]).not.toBe(back[0]);
      }),
    );
  });

  it('keeps one copy of a repeated string and counts its bytes', () => {
    const base = {
      building: 'Корпус 1',
      section: '1',
      floor: 2,
      number: null,
      rooms: 1,
      area: 40.5,
      facing: 'WHITE' as const,
      settlementDate: '2026-12-31',
      price: 9_000_000,
      basePrice: null,
      status: null,
      offer: null,
    };
    const flats = Array.from({ length: 1000 }, (_, i) => ({
      flatId: i + 1,
      rec: { ...base, price: base.price + i },
      refDay: 0,
      ref7Days: 0,
      ref1Month: 0,
      ref1Year: 0,
    }));
    const packed = PackedFlats.pack(flats);
    // 10 numbers and 7 string indexes a flat, and the four distinct strings once
    expect(packed.bytes).toBeLessThan(1000 * (10 * 8 + 7 * 4) + 200);
    expect(packed.unpack()[999].rec.price).toBe(9_000_999);
    expect(PackedFlats.pack([]).unpack()).toEqual([]);
  });
});
