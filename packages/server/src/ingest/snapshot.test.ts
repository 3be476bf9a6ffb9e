import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, type Snapshot } from './snapshot.js';

/** The hash as first defined (and stored with every snapshot since): sha256 of the sorted lines; a line
 *  gains the flat's offer when it has one. */
function storedDefinition(snapshot: Snapshot): string {
  const lines = snapshot.flats
    .map((f) => {
      const r = f.rec;
      return [
        f.externalId,
        r.building,
        r.section ?? '',
        r.floor ?? '',
        r.number ?? '',
        r.rooms,
        r.area,
        r.facing,
        r.settlementDate ?? '',
        r.price,
        r.basePrice ?? '',
        r.status ?? '',
        // an offer (§11.4) only when there is one: lists without offers hash as before them
        ...(r.offer === null ? [] : [r.offer]),
      ].join('\u0001');
    })
    .sort();
  if (snapshot.complete) lines.push('\u0002complete');
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

const flatArb = fc.record({
  // ids that are prefixes of one another («1-1-1», «1-1-10») and numbers, as real lists have
  externalId: fc.oneof(
    fc.tuple(fc.nat(3), fc.nat(3), fc.nat(120)).map(([b, s, n]) => `${b}-${s}-${n}`),
    fc.nat(5000).map(String),
  ),
  rec: fc.record({
    building: fc.constantFrom('1', '2', 'A'),
    section: fc.option(fc.constantFrom('1', '2')),
    floor: fc.option(fc.integer({ min: -2, max: 30 })),
    number: fc.option(fc.nat(400).map(String)),
    rooms: fc.nat(4),
    area: fc.integer({ min: 2000, max: 12000 }).map((a) => a / 100),
    facing: fc.constantFrom('FINE', 'NONE'),
    settlementDate: fc.option(fc.constantFrom('2026-12-31', '9999-12-31')),
    price: fc.integer({ min: 1_000_000, max: 90_000_000 }),
    basePrice: fc.option(fc.integer({ min: 1_000_000, max: 90_000_000 })),
    status: fc.option(fc.constantFrom('AVAILABLE', 'RESERVED')),
    offer: fc.option(fc.constantFrom('{"promo":"Скидка"}', '{"oldPrice":95000000}')),
  }),
});

describe('a snapshot content hash', () => {
  it('is the stored definition (sorted lines), whatever the order the flats come in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(flatArb, { selector: (f) => f.externalId, maxLength: 60 }),
        fc.boolean(),
        (flats, complete) => {
          const snapshot = {
            date: '2026-11-23',
            developer: 'D',
            project: 'P',
            flats,
            source: 'test',
            complete,
          } as unknown as Snapshot;
          const hash = contentHash(snapshot);
          expect(hash).toBe(storedDefinition(snapshot));
          expect(contentHash({ ...snapshot, flats: [...flats].reverse() })).toBe(hash);
        },
      ),
      { numRuns: 300, seed: 23 },
    );
  });
});
