import { describe, expect, it } from 'vitest';
import { chartOption, hasIsolatedPoint, packPoints } from './options';
import type { ChartSeries } from './types';

const series: ChartSeries[] = [
  { name: 'Минимум', kind: 'min', color: '#1', data: [['2026-01-01', 1]] },
  { name: 'Среднее', kind: 'avg', color: '#2', data: [['2026-01-01', 2]] },
  { name: 'Корпус 1', kind: 'breakdown', color: '#3', data: [['2026-01-01', null]] },
];

type Line = { smooth: number | false; step: string | false; lineStyle: { width: number }; color: string };

describe('chart option', () => {
  it.each([
    [{ smooth: true }, 0.3, false],
    [{ smooth: false }, false, 'end'],
    // the count chart steps whatever the switch says: a count holds until the next point
    [{ smooth: true, alwaysSteps: true }, false, 'end'],
  ])('%j → smooth %j, step %j', (look, smooth, step) => {
    const option = chartOption(series, { yName: 'Цена за м², ₽', dark: false, ...look }) as {
      series: Line[];
    };
    for (const s of option.series) {
      expect(s.smooth).toBe(smooth);
      expect(s.step).toBe(step);
    }
  });

  it('counts step by whole flats; prices do not', () => {
    const yAxis = (counts: boolean) =>
      (
        chartOption(series, { smooth: false, yName: 'Квартир', dark: false, counts }) as {
          yAxis: { minInterval?: number }[];
        }
      ).yAxis[0];
    expect(yAxis(true).minInterval).toBe(1);
    expect(yAxis(false).minInterval).toBeUndefined();
  });

  it('draws the average bold, on a date axis with zoom, the y axis named in roubles', () => {
    const option = chartOption(series, { smooth: true, yName: 'Цена за м², ₽', dark: true }) as {
      series: Line[];
      xAxis: { type: string };
      yAxis: { name: string; axisLabel: { formatter: (v: number) => string } }[];
      dataZoom: { type: string }[];
    };
    expect(option.series[1].lineStyle.width).toBeGreaterThan(option.series[0].lineStyle.width);
    expect(option.series[1].color).toBe('#f8fafc');
    expect(option.xAxis.type).toBe('time');
    expect(option.dataZoom.map((z) => z.type)).toEqual(['inside', 'slider']);
    expect(option.yAxis).toHaveLength(1);
    expect(option.yAxis[0].name).toBe('Цена за м², ₽');
    expect(option.yAxis[0].axisLabel.formatter(1250000)).toBe('1\u00a0250\u00a0000');
  });

  it('draws the index against a right-hand axis with two decimals; percent charts keep decimals', () => {
    const withIndex = [
      ...series,
      {
        name: 'Индекс',
        kind: 'index' as const,
        color: '#f00',
        axis: 'right' as const,
        data: [['2024-01-01', 101.5]],
      },
    ] as typeof series;
    const option = chartOption(withIndex, {
      smooth: true,
      yName: 'Цена за м², ₽',
      rightName: 'Индекс',
      dark: false,
    }) as {
      series: (Line & { yAxisIndex: number })[];
      yAxis: { name: string; axisLabel: { formatter: (v: number) => string } }[];
    };
    expect(option.yAxis.map((a) => a.name)).toEqual(['Цена за м², ₽', 'Индекс']);
    expect(option.series.map((x) => x.yAxisIndex)).toEqual([...series.map(() => 0), 1]);
    expect(option.yAxis[1].axisLabel.formatter(101.5)).toBe('101,50');
    const percent = chartOption(series, { smooth: true, yName: '%', dark: false, decimals: true }) as {
      yAxis: { axisLabel: { formatter: (v: number) => string } }[];
    };
    expect(percent.yAxis[0].axisLabel.formatter(12.5)).toBe('12,50');
  });
});

describe('spans without data', () => {
  it('are shaded on the first series and labelled «нет данных»; none, no mark area', () => {
    const series = [{ name: 'Среднее', kind: 'avg' as const, color: '#000', data: [] }];
    const look = { smooth: true, yName: '₽/м²', dark: false };
    const drawn = [
      {
        ...series[0],
        data: [
          ['2020-01-10', 1],
          ['2022-12-05', 2],
        ] as [string, number][],
      },
    ];
    const labelled = chartOption(drawn, {
      ...look,
      gaps: [
        { from: '2020-02-13', to: '2022-07-06' },
        { from: '2022-08-08', to: '2022-08-20' },
      ],
    }) as { series: { markArea: { data: { label?: unknown }[][] } }[] };
    // the wide band is labelled, the narrow one is not
    expect(labelled.series[0].markArea.data.map((d) => d[0].label)).toEqual([undefined, { show: false }]);
    const shaded = chartOption(series, { ...look, gaps: [{ from: '2020-02-13', to: '2022-07-06' }] }) as {
      series: { markArea?: { data: unknown[]; label: { formatter: string } } }[];
    };
    expect(shaded.series[0].markArea?.data).toEqual([[{ xAxis: '2020-02-13' }, { xAxis: '2022-07-06' }]]);
    expect(shaded.series[0].markArea?.label.formatter).toBe('нет данных');
    const plain = chartOption(series, look) as { series: { markArea?: unknown }[] };
    expect(plain.series[0].markArea).toBeUndefined();
  });
});

describe('a point no line reaches is drawn', () => {
  it.each([
    [[['2026-01-01', 1]], true],
    [
      [
        ['2026-01-01', 1],
        ['2026-01-02', 2],
      ],
      false,
    ],
    [
      [
        ['2026-01-01', 1],
        ['2026-01-02', 2],
        ['2026-01-03', null],
        ['2026-02-10', 3],
      ],
      true,
    ],
    [
      [
        ['2026-01-01', null],
        ['2026-01-02', 2],
        ['2026-01-03', 2],
      ],
      false,
    ],
    [[], false],
  ] as [[string, number | null][], boolean][])('%j → %s', (data, isolated) => {
    expect(hasIsolatedPoint(data)).toBe(isolated);
  });
});

describe('points packed for ECharts', () => {
  it('packs days as local midnights and no value as NaN, each day parsed once per chart', () => {
    const days = new Map<string, number>();
    const packed = packPoints(
      [
        ['2024-02-28', 101],
        ['2024-02-29', null],
        ['2024-03-01', 99.5],
      ],
      days,
    );
    expect(packed).toBeInstanceOf(Float64Array);
    expect([...packed]).toEqual([
      new Date(2024, 1, 28).getTime(),
      101,
      new Date(2024, 1, 29).getTime(),
      Number.NaN,
      new Date(2024, 2, 1).getTime(),
      99.5,
    ]);
    expect(days.size).toBe(3);
    packPoints([['2024-02-29', 5]], days);
    expect(days.size).toBe(3);
  });

  it('gives every series of the option its packed points', () => {
    const option = chartOption(series, { smooth: true, yName: '₽', dark: false }) as {
      series: { data: Float64Array }[];
    };
    expect(option.series.map((s) => [...s.data])).toEqual([
      [new Date(2026, 0, 1).getTime(), 1],
      [new Date(2026, 0, 1).getTime(), 2],
      [new Date(2026, 0, 1).getTime(), Number.NaN],
    ]);
  });
});
