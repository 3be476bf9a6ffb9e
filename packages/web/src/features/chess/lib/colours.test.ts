import type { ChessCellView } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { chessColours, GONE } from './colours';

const cell = (over: Partial<ChessCellView>): ChessCellView => ({
  flatId: 1,
  state: 'active',
  status: 'AVAILABLE',
  section: '1',
  floor: 1,
  number: '1',
  rooms: 1,
  area: 40,
  price: 8_000_000,
  meterPrice: 200_000,
  firstSeen: '2026-01-01',
  lastSeen: '2026-01-10',
  daysOnMarket: 9,
  priceSince: null,
  ...over,
});

describe('chessboard colours', () => {
  it.each([
    // mode, cell, colour
    ['status', cell({}), '#22c55e'],
    ['status', cell({ status: null }), '#22c55e'],
    ['status', cell({ status: 'RESERVED' }), '#f59e0b'],
    ['status', cell({ state: 'gone' }), GONE],
    ['change', cell({ priceSince: 8_500_000 }), '#22c55e'],
    ['change', cell({ priceSince: 7_500_000 }), '#ef4444'],
    ['change', cell({ priceSince: 8_000_000 }), '#bfdbfe'],
    ['change', cell({ priceSince: null }), '#a78bfa'],
    ['change', cell({ state: 'gone', priceSince: 1 }), GONE],
    ['days', cell({ daysOnMarket: 30 }), '#16a34a'],
    ['days', cell({ daysOnMarket: 31 }), '#84cc16'],
    ['days', cell({ daysOnMarket: 400 }), '#dc2626'],
    ['days', cell({ state: 'gone', daysOnMarket: 5 }), GONE],
  ] as const)('%s: %j → %s', (mode, c, colour) => {
    expect(chessColours([c], mode).colour(c)).toBe(colour);
  });

  it('ppm: five classes by the quintiles of the flats on sale, cheap green to dear red, with a legend', () => {
    const cells = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((k, i) =>
      cell({ flatId: i, meterPrice: k * 1000 }),
    );
    const { colour, legend } = chessColours([...cells, cell({ state: 'gone', meterPrice: 1 })], 'ppm');
    expect(cells.map(colour)).toEqual([
      '#16a34a',
      '#16a34a',
      '#84cc16',
      '#84cc16',
      '#facc15',
      '#facc15',
      '#f97316',
      '#f97316',
      '#dc2626',
      '#dc2626',
    ]);
    expect(legend.map((l) => l.label)).toEqual([
      'до 300 тыс.',
      '300 тыс. – 500 тыс.',
      '500 тыс. – 700 тыс.',
      '700 тыс. – 900 тыс.',
      'от 900 тыс.',
      'выбыла',
    ]);
    expect(chessColours([cell({ state: 'gone' })], 'ppm').legend).toEqual([
      { colour: GONE, label: 'выбыла' },
    ]);
  });
});
