import { describe, expect, it } from 'vitest';
import { toDay } from '../lib/days.js';
import { activityRuns, dayIndexOf, toDaySegments } from './activity.js';
import { flatEventsAt } from './events.js';
import type { FlatRecord, ObservationRow } from './types.js';
import { lastDataDay } from './windows.js';

const rec = (price: number): FlatRecord => ({
  building: '1',
  section: null,
  floor: 3,
  number: '7',
  rooms: 1,
  area: 40,
  facing: 'WHITE',
  settlementDate: null,
  price,
  basePrice: null,
  status: 'AVAILABLE',
  offer: null,
});
const d = (iso: string) => toDay(iso);

/** Activity on each day from the compact rows (presence pattern over 1..n Nov snapshots). */
function activeDays(pattern: (number | null)[], grace: number) {
  const dates = pattern.map((_, i) => d(`2026-11-${String(i + 1).padStart(2, '0')}`));
  const rows: ObservationRow[] = [];
  let prev: number | null | undefined;
  pattern.forEach((p, i) => {
    if (p !== prev) rows.push({ day: dates[i], rec: p === null ? null : rec(p) });
    prev = p;
  });
  const segs = toDaySegments(1, activityRuns({ flatId: 1, rows }, dayIndexOf(dates), dates, grace), dates);
  return dates.map((day) => {
    const s = segs.find((x) => x.startDay <= day && (x.endDay ?? dates[dates.length - 1]) >= day);
    return s ? s.rec.price : null;
  });
}

describe('§4.1 activity with the removal grace', () => {
  it.each([
    // the worked examples of DESIGN §4.1 (G = 2)
    {
      name: 'present, absent, present: active all three days at the 1 Nov price on 2 Nov',
      pattern: [100, null, 110],
      grace: 2,
      expected: [100, 100, 110],
    },
    {
      name: 'present, absent, absent: inactive from 2 Nov',
      pattern: [100, null, null],
      grace: 2,
      expected: [100, null, null],
    },
    {
      name: 'present, absent as the last snapshot: still active (pending)',
      pattern: [100, null],
      grace: 2,
      expected: [100, 100],
    },
    {
      name: 'G = 1: any absence counts at once',
      pattern: [100, null, 100],
      grace: 1,
      expected: [100, null, 100],
    },
    {
      name: 'G = 3: two missed snapshots are bridged',
      pattern: [100, null, null, 120],
      grace: 3,
      expected: [100, 100, 100, 120],
    },
    {
      name: 'G = 3: three missed snapshots are not',
      pattern: [100, null, null, null, 120],
      grace: 3,
      expected: [100, null, null, null, 120],
    },
    {
      name: 'never present before: no bridge',
      pattern: [null, null, 100],
      grace: 2,
      expected: [null, null, 100],
    },
  ])('$name', ({ pattern, grace, expected }) => {
    expect(activeDays(pattern, grace)).toEqual(expected);
  });

  it('days between snapshots carry the earlier state; the open segment ends at the last snapshot', () => {
    const dates = [d('2026-11-01'), d('2026-11-08')];
    const rows = [
      { day: dates[0], rec: rec(100) },
      { day: dates[1], rec: rec(90) },
    ];
    const segs = toDaySegments(1, activityRuns({ flatId: 1, rows }, dayIndexOf(dates), dates, 2), dates);
    expect(segs.map((s) => [s.startDay, s.endDay, s.rec.price])).toEqual([
      [dates[0], d('2026-11-07'), 100],
      [dates[1], null, 90],
    ]);
  });
});

describe('§10.1 carry-forward limit C', () => {
  // the PIK Salaryevo lists: 2020-01-12, then 906 days without a list, then 2022-07-07
  const dates = [d('2020-01-10'), d('2020-01-12'), d('2022-07-07'), d('2022-07-08')];
  const segmentsOf = (rows: { day: number; rec: FlatRecord | null }[], grace = 2, carry = 31) =>
    toDaySegments(
      1,
      activityRuns({ flatId: 1, rows }, dayIndexOf(dates), dates, grace, carry),
      dates,
      carry,
    ).map((s) => [s.startDay, s.endDay, s.rec.price]);

  it('a flat listed on both sides of a gap is two segments: no data in the gap', () => {
    expect(segmentsOf([{ day: dates[0], rec: rec(100) }])).toEqual([
      [dates[0], d('2020-02-12'), 100],
      [dates[2], null, 100],
    ]);
  });

  it('an absence more than C days after the last presence is not bridged', () => {
    // listed 2020-01-12, missing on 2022-07-07, back on 2022-07-08: G = 2 would bridge one miss
    const rows = [
      { day: dates[0], rec: rec(100) },
      { day: dates[2], rec: null },
      { day: dates[3], rec: rec(100) },
    ];
    expect(segmentsOf(rows)).toEqual([
      [dates[0], d('2020-02-12'), 100],
      [dates[3], null, 100],
    ]);
    // with a limit that never bites, §4.1 alone bridges it
    expect(segmentsOf(rows, 2, 10_000)).toEqual([[dates[0], null, 100]]);
  });

  it('events: the flat missing from the first list after the gap is not active as known then', () => {
    const h = {
      flatId: 7,
      rows: [
        { day: dates[0], rec: rec(100) },
        { day: dates[2], rec: null },
      ],
    };
    // §4.1 alone would keep it (one miss, G = 2); after 906 days the miss is a removal at once
    expect(flatEventsAt(h, dates, 2, 2, 31).map((e) => e.kind)).toEqual(['REMOVED']);
    expect(flatEventsAt(h, dates, 2, 2, 10_000)).toEqual([]);
  });

  it('A, the latest day with data: in a gap it is the last carried day', () => {
    expect(lastDataDay(dates, d('2021-06-01'), 31)).toBe(d('2020-02-12'));
    expect(lastDataDay(dates, d('2020-01-20'), 31)).toBe(d('2020-01-20'));
    expect(lastDataDay(dates, d('2030-01-01'), 31)).toBe(dates[3]);
    expect(lastDataDay(dates, d('2019-01-01'), 31)).toBeNull();
  });
});

describe('§4.4 events as known when each snapshot arrived', () => {
  const dates = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'].map(d);
  const history = (rows: [number, number | null][]) => ({
    flatId: 7,
    rows: rows.map(([k, p]) => ({ day: dates[k], rec: p === null ? null : rec(p) })),
  });
  it.each([
    {
      name: 'REMOVED on the second missed snapshot (G = 2)',
      rows: [
        [0, 100],
        [1, null],
      ] as [number, number | null][],
      k: 2,
      kind: 'REMOVED',
    },
    {
      name: 'no event on the first missed snapshot',
      rows: [
        [0, 100],
        [1, null],
      ] as [number, number | null][],
      k: 1,
      kind: null,
    },
    {
      name: 'NEW when first listed after the first snapshot',
      rows: [[1, 100]] as [number, number | null][],
      k: 1,
      kind: 'NEW',
    },
    {
      name: 'PRICE_DOWN with the change in %',
      rows: [
        [0, 100],
        [1, 90],
      ] as [number, number | null][],
      k: 1,
      kind: 'PRICE_DOWN',
    },
    {
      name: 'PRICE_UP after a bridged absence, against the last known price',
      rows: [
        [0, 100],
        [1, null],
        [2, 120],
      ] as [number, number | null][],
      k: 2,
      kind: 'PRICE_UP',
    },
    {
      name: 'no flat events on the first snapshot',
      rows: [[0, 100]] as [number, number | null][],
      k: 0,
      kind: null,
    },
  ])('$name', ({ rows, k, kind }) => {
    const events = flatEventsAt(history(rows), dates, k, 2);
    expect(events.map((e) => e.kind)).toEqual(kind ? [kind] : []);
    if (kind === 'PRICE_DOWN') expect(events[0].changePercent).toBeCloseTo(-10, 10);
  });

  it('§10.3: a listed flat whose area changes by 0.01 m² or more has AREA_CHANGED, after its price change', () => {
    const sized = (price: number, area: number) => ({ ...rec(price), area });
    const h = {
      flatId: 7,
      rows: [
        { day: dates[0], rec: sized(100, 38.4) },
        { day: dates[1], rec: sized(90, 38.41) },
      ],
    };
    const events = flatEventsAt(h, dates, 1, 2);
    expect(events.map((e) => e.kind)).toEqual(['PRICE_DOWN', 'AREA_CHANGED']);
    expect(events[1]).toMatchObject({ oldArea: 38.4, changePercent: null, oldPrice: 100, newPrice: 90 });
    expect(events[1].rec.area).toBe(38.41);
    // the same area written otherwise (no change of 0.01 m²): no event
    const same = {
      flatId: 7,
      rows: [
        { day: dates[0], rec: sized(100, 38.4) },
        { day: dates[1], rec: sized(100, 38.400000001) },
      ],
    };
    expect(flatEventsAt(same, dates, 1, 2)).toEqual([]);
  });
});
