import { describe, expect, it } from 'vitest';
import { hedonicLines } from './hedonic-lines';

const point = (
  date: string,
  index: number,
  avgMeterPrice: number,
  priceEffect: number | null,
  mixEffect: number | null,
) => ({
  date,
  index,
  change: priceEffect,
  low: index - 1,
  high: index + 1,
  observations: 100,
  projects: 5,
  avgMeterPrice,
  priceEffect,
  mixEffect,
});

describe('the lines of the hedonic index', () => {
  it('the index with its interval, the average brought to 100 on the first month, the split by month', () => {
    const { index, split } = hedonicLines([
      point('2026-01-01', 100, 200_000, null, null),
      point('2026-02-01', 101, 206_000, 1, 1.98),
    ]);
    expect(index.map((s) => s.name)).toEqual([
      'Индекс без учёта структуры',
      '95 %: нижняя граница',
      '95 %: верхняя граница',
      'Средняя цена м² (= 100 в первый месяц)',
    ]);
    expect(index[0].data).toEqual([
      ['2026-01-01', 100],
      ['2026-02-01', 101],
    ]);
    expect(index[1].data[1]).toEqual(['2026-02-01', 100]);
    expect(index[3].data).toEqual([
      ['2026-01-01', 100],
      ['2026-02-01', 103],
    ]);
    expect(split[0].data).toEqual([
      ['2026-01-01', null],
      ['2026-02-01', 1],
    ]);
    expect(split[1].data[1]).toEqual(['2026-02-01', 1.98]);
  });

  it('no points, no lines to draw', () => {
    const { index, split } = hedonicLines([]);
    expect(index.every((s) => s.data.length === 0)).toBe(true);
    expect(split.every((s) => s.data.length === 0)).toBe(true);
  });
});
