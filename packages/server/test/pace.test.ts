import { describe, expect, it } from 'vitest';
import { ProjectModel } from '../src/analytics/model.js';
import { paceSummary, projectPace } from '../src/analytics/pace-summary.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { toDay } from '../src/lib/days.js';

const rec = (rooms: number): FlatRecord => ({
  building: '1',
  section: null,
  floor: 1,
  number: null,
  rooms,
  area: 40,
  facing: 'UNKNOWN',
  settlementDate: null,
  price: 8_000_000,
  basePrice: null,
  status: null,
});

describe('§10.5 sales pace', () => {
  // G = 2, daily lists: e comes on sale on the 2nd; c and d vanish on the 3rd (removed on the 4th, their
  // second miss); c comes back on the 5th
  const lists: [string, number[]][] = [
    ['2026-01-01', [1, 2, 3, 4]],
    ['2026-01-02', [1, 2, 3, 4, 5]],
    ['2026-01-03', [1, 2, 5]],
    ['2026-01-04', [1, 2, 5]],
    ['2026-01-05', [1, 2, 3, 5]],
  ];
  const rooms = new Map([
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 2],
    [5, 1],
  ]);
  const model = new ProjectModel(1, 2, 0, 31);
  for (const [date, ids] of lists) {
    model.applySnapshot(toDay(date), new Map(ids.map((id) => [id, rec(rooms.get(id)!)])));
  }
  const { events } = model.recomputeAll();
  const firstSeen = new Map<number, number>();
  for (const h of model.flats.values()) firstSeen.set(h.flatId, h.rows.find((r) => r.rec)!.day);
  // as POST /api/project/pace reads it: the project's summary for the filter
  const series = (accept: (r: FlatRecord) => boolean = () => true) =>
    projectPace(
      paceSummary(model.allSegments(), events, firstSeen, model.dates, 31, accept),
      toDay('2026-01-01'),
      toDay('2026-01-05'),
    );

  it('stock, new, gone (a flat that came back is not gone), absorption, months of supply, medians', () => {
    const last = series().at(-1)!;
    expect(last).toEqual({
      date: '2026-01-05',
      stock: 4,
      new7: 2,
      new30: 2,
      gone7: 1,
      gone30: 1,
      // no data 30 days before: stock then is 0
      absorption: 50,
      monthsOfSupply: 4,
      // d: removed on the 4th, first listed on the 1st
      medianDaysOnMarket: 3,
      // a, b, c listed since the 1st (4 days), e since the 2nd (3)
      medianStockAge: 4,
    });
  });

  it('a filter counts only its flats: the two-room d gone is not a one-room sale', () => {
    const last = series((r) => r.rooms === 1).at(-1)!;
    expect(last).toMatchObject({
      stock: 4,
      new30: 2,
      gone30: 0,
      absorption: 0,
      monthsOfSupply: null,
      medianDaysOnMarket: null,
    });
  });

  it('a point for every day with data, none before the first list', () => {
    expect(series().map((p) => p.date)).toEqual(lists.map(([d]) => d));
    expect(series()[0]).toMatchObject({ stock: 4, new30: 0, gone30: 0, absorption: null });
  });
});
