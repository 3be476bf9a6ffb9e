import type { PacePoint } from '../src/analytics/pace-union.js';

/**
 * DESIGN §10.5 worked by hand, asserted at two layers (the engine in pace.test.ts, the API in
 * api-pace.test.ts). G = 2, daily lists of flats 1–5: 5 comes on sale on the 2nd; 3 and 4 vanish on the 3rd
 * (removed on the 4th, their second miss); 3 comes back on the 5th. Flat 4 has two rooms, the others one.
 */
export const PACE_EXAMPLE = {
  lists: [
    ['2026-01-01', [1, 2, 3, 4]],
    ['2026-01-02', [1, 2, 3, 4, 5]],
    ['2026-01-03', [1, 2, 5]],
    ['2026-01-04', [1, 2, 5]],
    ['2026-01-05', [1, 2, 3, 5]],
  ] as [string, number[]][],
  rooms: { 1: 1, 2: 1, 3: 1, 4: 2, 5: 1 } as Record<number, number>,
  /** the figures on the 5th, over every flat */
  last: {
    date: '2026-01-05',
    stock: 4,
    new7: 2,
    new30: 2,
    gone7: 1,
    gone30: 1,
    // no data on D − 30: the window is not whole, no absorption (§10.5, amended 2026-11-24; with a list
    // of flats 1–4 on 12-06 it would be 1 gone / (4 + 1 new) — api-market-pace.test.ts has a whole window)
    absorption: null,
    monthsOfSupply: 4,
    // 4: removed on the 4th, first listed on the 1st
    medianDaysOnMarket: 3,
    // 1, 2, 3 listed since the 1st (4 days), 5 since the 2nd (3)
    medianStockAge: 4,
  } satisfies PacePoint,
  /** … over the one-room flats only: the two-room 4 gone is not a one-room sale */
  lastOneRoom: {
    stock: 4,
    new30: 2,
    gone30: 0,
    absorption: null,
    monthsOfSupply: null,
    medianDaysOnMarket: null,
  },
};
