import type { FlatCard } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { historySeries, priceChanges } from './history';

const card = (history: FlatCard['priceHistory'], lastSeen: string): FlatCard => ({
  flatId: 1,
  externalId: 'a',
  developerId: 1,
  developerName: 'Д',
  projectId: 1,
  projectName: 'П',
  record: {
    building: '1',
    section: null,
    floor: 3,
    number: '7',
    rooms: 1,
    area: 40,
    facing: 'BLACK',
    settlementDate: null,
    price: 7_600_000,
    basePrice: null,
    meterPrice: 190_000,
    listingStatus: 'AVAILABLE',
  },
  status: 'ACTIVE',
  firstSeen: history[0].date,
  lastSeen,
  priceHistory: history,
  statusHistory: [{ date: history[0].date, state: 'AVAILABLE' }],
  areaHistory: [{ date: history[0].date, area: 40 }],
});

describe('flat price history', () => {
  const history = [
    { date: '2026-11-01', price: 8_000_000, meterPrice: 200_000 },
    { date: '2026-11-02', price: 7_600_000, meterPrice: 190_000 },
    { date: '2026-11-10', price: 7_980_000, meterPrice: 199_500 },
  ];

  it('gives each change its percent from the previous price', () => {
    expect(priceChanges(card(history, '2026-11-20')).map((c) => c.changePercent)).toEqual([null, -5, 5]);
  });

  it.each([
    [
      '2026-11-20',
      [
        ['2026-11-01', 200_000],
        ['2026-11-02', 190_000],
        ['2026-11-10', 199_500],
        ['2026-11-20', 199_500],
      ],
    ],
    // seen last on the day of its last change: no extra point
    [
      '2026-11-10',
      [
        ['2026-11-01', 200_000],
        ['2026-11-02', 190_000],
        ['2026-11-10', 199_500],
      ],
    ],
  ])('carries the last price to the last day seen (%s)', (lastSeen, data) => {
    expect(historySeries(card(history, lastSeen))[0].data).toEqual(data);
  });
});
