import type { ChartType } from '@cena-metra/contract';
import { compactStats, type StatsPoint, type StatsResponse } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { breakAtGaps, CHARTS, chartSeries, countSeries, noDataBands, PALETTE, priceSeries } from './series';

const NO_POINTS = { points: [] };
/** The series of one group's points, through the columns the web receives. */
function prices(points: StatsPoint[], type: ChartType) {
  const c = compactStats({
    allRoomsData: { points },
    studioData: NO_POINTS,
    oneRoomData: NO_POINTS,
    twoRoomsData: NO_POINTS,
    threeAndMoreRoomData: NO_POINTS,
    flatsCountList: [],
    shortFlatSummaryList: [],
  });
  return priceSeries(c.dates, c.allRoomsData, type);
}

const point = (date: string, over: Partial<StatsPoint> = {}): StatsPoint => ({
  date,
  minMeterPrice: 100,
  maxMeterPrice: 300,
  avgMeterPrice: 200,
  avgMeterPriceByFacing: {},
  avgMeterPriceBySettlementDate: {},
  avgMeterPriceByBuilding: {},
  avgMeterPriceByRoomsNumber: {},
  ...over,
});

describe('priceSeries: min, avg, max, then the breakdown', () => {
  it.each([
    ['NONE', ['Минимум', 'Среднее', 'Максимум']],
    [
      'ROOMS_NUMBER',
      ['Минимум', 'Среднее', 'Максимум', 'Студия', '1-комнатная', '2-комнатная', '10-комнатная'],
    ],
    ['FACING', ['Минимум', 'Среднее', 'Максимум', 'Без отделки', 'С отделкой', 'Неизвестно']],
    ['SETTLEMENT_DATE', ['Минимум', 'Среднее', 'Максимум', '1 кв. 2026 г.', '4 кв. 2027 г.']],
    ['BUILDING', ['Минимум', 'Среднее', 'Максимум', 'Корпус 2', 'Корпус 10', 'Корпус А']],
  ] as const)('%s → %j', (type, names) => {
    const points = [
      point('2026-01-01', {
        avgMeterPriceByRoomsNumber: { '10': 1, '2': 2, '0': 3, '1': 4 },
        avgMeterPriceByFacing: { UNKNOWN: 1, FINE_FINISHING: 2, BLACK: 3 },
        avgMeterPriceBySettlementDate: { '2027-12-31': 1, null: 5, '2026-03-31': 2 },
        avgMeterPriceByBuilding: { '10': 1, 'Корпус А': 2, '2': 3 },
      }),
    ];
    expect(prices(points, type).map((s) => s.name)).toEqual(names);
  });

  it("ignores the key 'null' and leaves gaps where a key has no flats that day", () => {
    const series = prices(
      [
        point('2026-01-01', { avgMeterPriceByBuilding: { '1': 150, null: 999 } }),
        point('2026-01-02', { avgMeterPriceByBuilding: { '2': 250 } }),
      ],
      'BUILDING',
    );
    expect(series.map((s) => s.name)).toEqual(['Минимум', 'Среднее', 'Максимум', 'Корпус 1', 'Корпус 2']);
    expect(series[3].data).toEqual([
      ['2026-01-01', 150],
      ['2026-01-02', null],
    ]);
    expect(series[4].data).toEqual([
      ['2026-01-01', null],
      ['2026-01-02', 250],
    ]);
    expect(series.slice(0, 3).map((s) => s.kind)).toEqual(['min', 'avg', 'max']);
    expect(series[1].data).toEqual([
      ['2026-01-01', 200],
      ['2026-01-02', 200],
    ]);
  });

  it('cycles the 10-colour palette over breakdown series', () => {
    const keys = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i + 1), i]));
    const series = prices([point('2026-01-01', { avgMeterPriceByBuilding: keys })], 'BUILDING');
    const colours = series.slice(3).map((s) => s.color);
    expect(colours.slice(0, 10)).toEqual(PALETTE);
    expect(colours[10]).toBe(PALETTE[0]);
    expect(colours[11]).toBe(PALETTE[1]);
  });
});

describe('chartSeries: the nine charts', () => {
  const stats: StatsResponse = {
    allRoomsData: {
      points: [
        point('2026-01-01', { avgMeterPriceByFacing: { BLACK: 1 }, avgMeterPriceByRoomsNumber: { '1': 2 } }),
      ],
    },
    studioData: { points: [] },
    oneRoomData: { points: [point('2026-01-01', { avgMeterPriceByFacing: { BLACK: 1, WHITE: 2 } })] },
    twoRoomsData: { points: [] },
    threeAndMoreRoomData: { points: [] },
    flatsCountList: [
      { label: 'Все', points: [{ date: '2026-01-01', count: 5 }] },
      { label: 'Студии', points: [{ date: '2026-01-01', count: 0 }] },
    ],
    shortFlatSummaryList: [],
  };

  it('charts 1–4 keep their breakdown whatever the chart type; 5–8 follow it; 9 is the counts', () => {
    expect(CHARTS).toHaveLength(9);
    const byType = (type: 'NONE' | 'FACING') =>
      CHARTS.map((c) => chartSeries(c, compactStats(stats), type).map((s) => s.name));
    const none = byType('NONE');
    const facing = byType('FACING');
    expect(none[0]).toEqual(['Минимум', 'Среднее', 'Максимум', '1-комнатная']);
    expect(facing[0]).toEqual(none[0]);
    expect(none[5]).toEqual(['Минимум', 'Среднее', 'Максимум']);
    expect(facing[5]).toEqual(['Минимум', 'Среднее', 'Максимум', 'Без отделки', 'Предчистовая']);
    expect(none[8]).toEqual(['Все', 'Студии']);
  });

  it('countSeries keeps the labels and counts', () => {
    expect(countSeries(compactStats(stats).dates, compactStats(stats).flatsCountList)[0]).toMatchObject({
      name: 'Все',
      kind: 'count',
      data: [['2026-01-01', 5]],
    });
  });
});

describe('days without data (DESIGN §10.1): breaks and bands', () => {
  it.each([
    [['2020-01-10', '2020-01-11', '2020-01-12'], []],
    [['2020-02-11', '2020-02-12', '2022-07-07', '2022-07-08'], [{ from: '2020-02-13', to: '2022-07-06' }]],
    [
      ['2026-01-01', '2026-01-03', '2026-01-04', '2026-01-10'],
      [
        { from: '2026-01-02', to: '2026-01-02' },
        { from: '2026-01-05', to: '2026-01-09' },
      ],
    ],
    [[], []],
  ])('%j → %j', (dates, bands) => expect(noDataBands(dates)).toEqual(bands));

  it('a series gets a null on the first missing day, so no line crosses the gap', () => {
    expect(
      breakAtGaps([
        ['2020-02-11', 1],
        ['2020-02-12', 2],
        ['2022-07-07', 3],
        ['2022-07-08', null],
      ]),
    ).toEqual([
      ['2020-02-11', 1],
      ['2020-02-12', 2],
      ['2020-02-13', null],
      ['2022-07-07', 3],
      ['2022-07-08', null],
    ]);
  });

  it('every chart of a response with a gap is broken there', () => {
    const day = (date: string) => ({
      date,
      minMeterPrice: 1,
      maxMeterPrice: 3,
      avgMeterPrice: 2,
      avgMeterPriceByFacing: {},
      avgMeterPriceBySettlementDate: {},
      avgMeterPriceByBuilding: { '31': 2 },
      avgMeterPriceByRoomsNumber: { '1': 2 },
    });
    const dates = ['2020-02-12', '2022-07-07'];
    const stats = {
      allRoomsData: { points: dates.map(day) },
      studioData: { points: [] },
      oneRoomData: { points: dates.map(day) },
      twoRoomsData: { points: [] },
      threeAndMoreRoomData: { points: [] },
      flatsCountList: [{ label: 'Все', points: dates.map((date) => ({ date, count: 5 })) }],
      shortFlatSummaryList: [],
    };
    for (const spec of CHARTS) {
      const series = chartSeries(spec, compactStats(stats), 'BUILDING');
      for (const s of series.filter((x) => x.data.length))
        expect(s.data.map(([d, v]) => (v === null ? `${d}:gap` : d))).toEqual([
          '2020-02-12',
          '2020-02-13:gap',
          '2022-07-07',
        ]);
    }
  });
});
