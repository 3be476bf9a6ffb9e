import { describe, expect, it } from 'vitest';
import { ProjectModel } from '../src/analytics/model.js';
import { paceSummary } from '../src/analytics/pace-summary.js';
import { projectPace } from '../src/analytics/pace-union.js';
import type { FlatRecord } from '../src/analytics/types.js';
import { toDay } from '../src/lib/days.js';
import { PACE_EXAMPLE } from './pace-example.js';

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
  offer: null,
});

describe('§10.5 sales pace', () => {
  const { lists, rooms } = PACE_EXAMPLE;
  const model = new ProjectModel(1, 2, 0, 31);
  for (const [date, ids] of lists) {
    model.applySnapshot(toDay(date), new Map(ids.map((id) => [id, rec(rooms[id])])));
  }
  const { events } = model.recomputeAll();
  const firstSeen = model.firstPresences();
  // as POST /api/project/pace reads it: the project's summary for the filter
  const series = (accept: (r: FlatRecord) => boolean = () => true) =>
    projectPace(
      paceSummary(model.allSegments(), events, firstSeen, model.dates, 31, accept),
      toDay('2026-01-01'),
      toDay('2026-01-05'),
    );

  it('stock, new, gone (a flat that came back is not gone), absorption, months of supply, medians', () => {
    expect(series().at(-1)).toEqual(PACE_EXAMPLE.last);
  });

  it('a filter counts only its flats: the two-room flat gone is not a one-room sale', () => {
    expect(series((r) => r.rooms === 1).at(-1)).toMatchObject(PACE_EXAMPLE.lastOneRoom);
  });

  it('a point for every day with data, none before the first list', () => {
    expect(series().map((p) => p.date)).toEqual(lists.map(([d]) => d));
    expect(series()[0]).toMatchObject({ stock: 4, new30: 0, gone30: 0, absorption: null });
  });
});
