import type { Facing } from '@cena-metra/contract';
import fc from 'fast-check';
import type { FlatRecord } from '../src/analytics/types.js';
import type { OracleSnapshot } from './oracle.js';

const FACINGS: Facing[] = ['BLACK', 'WHITE', 'FINE_FINISHING', 'FURNITURE', 'UNKNOWN'];
const AREAS = [19.7, 24.35, 38.4, 41, 55.55, 63.1, 78.4, 92.25];
const BASE_DAY = 19_700; // 2023-12-09

/** A random project history: flickering presence, price and attribute changes, irregular snapshot gaps. */
export const projectArb = fc
  .record({
    flats: fc.integer({ min: 1, max: 14 }),
    snapshots: fc.integer({ min: 1, max: 12 }),
    // mostly daily to monthly lists, sometimes a long gap (§10.1: the PIK data has one of 906 days)
    gaps: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 45 }) },
        { weight: 1, arbitrary: fc.integer({ min: 46, max: 400 }) },
      ),
      {
        minLength: 12,
        maxLength: 12,
      },
    ),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    presence: fc.double({ min: 0.3, max: 1, noNaN: true }),
  })
  .map(({ flats, snapshots, gaps, seed, presence }) => {
    let s = seed;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    const base: FlatRecord[] = Array.from({ length: flats }, () => ({
      building: String(1 + Math.floor(rnd() * 3)),
      section: rnd() < 0.5 ? '1' : null,
      floor: 1 + Math.floor(rnd() * 20),
      number: String(Math.floor(rnd() * 300)),
      rooms: Math.floor(rnd() * 5),
      area: AREAS[Math.floor(rnd() * AREAS.length)],
      facing: FACINGS[Math.floor(rnd() * FACINGS.length)],
      settlementDate: rnd() < 0.2 ? null : ['2025-12-31', '2026-06-30'][Math.floor(rnd() * 2)],
      price: 5_000_000 + Math.floor(rnd() * 200) * 50_000,
      basePrice: null,
      status: rnd() < 0.5 ? 'AVAILABLE' : 'RESERVED',
      offer: null,
    }));
    const out: OracleSnapshot[] = [];
    let day = BASE_DAY;
    for (let k = 0; k < snapshots; k++) {
      day += k === 0 ? 0 : gaps[k];
      const map = new Map<string, FlatRecord>();
      // §10.4: now and then a scan that caught a fifth of the list, sometimes a real sell-out (complete)
      const scanned = rnd() < 0.15 ? 0.2 : 1;
      const complete = scanned < 1 && rnd() < 0.3;
      base.forEach((rec, i) => {
        // evolve: price moves, sometimes the area or the building is corrected
        if (rnd() < 0.3) rec.price = Math.max(1_000_000, rec.price + (Math.floor(rnd() * 21) - 10) * 25_000);
        if (rnd() < 0.05) rec.area = AREAS[Math.floor(rnd() * AREAS.length)];
        // a correction by the smallest step §10.3 counts (0.01 m²)
        if (rnd() < 0.03) rec.area = Math.round((rec.area + 0.01) * 100) / 100;
        // lots get reserved and come back on sale (§10.2)
        if (rnd() < 0.1)
          rec.status = rec.status === 'RESERVED' ? 'AVAILABLE' : rnd() < 0.3 ? null : 'RESERVED';
        if (rnd() < 0.05) rec.building = String(1 + Math.floor(rnd() * 3));
        if (rnd() < 0.05) rec.facing = FACINGS[Math.floor(rnd() * FACINGS.length)];
        // sources spell one building differently (§10.3): «3», «Корпус 3», «корп. 3»
        const spelling = rnd();
        const building =
          spelling < 0.15
            ? `Корпус ${rec.building}`
            : spelling < 0.25
              ? ` корп.  ${rec.building}`
              : rec.building;
        if (rnd() < presence && rnd() < scanned) map.set(`f${i}`, { ...rec, building });
      });
      out.push({ day, flats: map, ...(complete && { complete }) });
    }
    return out;
  });

/** A market: several projects, a removal grace, a request range that may start before and end after the data. */
export const marketArb = fc.record({
  projects: fc.array(projectArb, { minLength: 1, maxLength: 3 }),
  grace: fc.constantFrom(1, 2, 3),
  /** the carry-forward limit C (§10.1): the default, tighter ones, and one that never bites */
  carry: fc.constantFrom(31, 7, 14, 10_000),
  fromOffset: fc.integer({ min: -20, max: 200 }),
  length: fc.integer({ min: 0, max: 400 }),
  orderSeed: fc.integer({ min: 0, max: 1000 }),
});

/** A deterministic shuffle. */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 16807) % 2147483647;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const BASE = BASE_DAY;
