import { describe, expect, it } from 'vitest';
import { chartOption } from './options';
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

  it('draws the average bold, on a date axis with zoom, the y axis named in roubles', () => {
    const option = chartOption(series, { smooth: true, yName: 'Цена за м², ₽', dark: true }) as {
      series: Line[];
      xAxis: { type: string };
      yAxis: { name: string; axisLabel: { formatter: (v: number) => string } };
      dataZoom: { type: string }[];
    };
    expect(option.series[1].lineStyle.width).toBeGreaterThan(option.series[0].lineStyle.width);
    expect(option.series[1].color).toBe('#f8fafc');
    expect(option.xAxis.type).toBe('time');
    expect(option.dataZoom.map((z) => z.type)).toEqual(['inside', 'slider']);
    expect(option.yAxis.name).toBe('Цена за м², ₽');
    expect(option.yAxis.axisLabel.formatter(1250000)).toBe('1\u00a0250\u00a0000');
  });
});
