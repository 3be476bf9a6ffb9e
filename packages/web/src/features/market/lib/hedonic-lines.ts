import type { HedonicPoint } from '@cena-metra/contract';
import type { ChartSeries } from '../../../components/chart/types';

/**
 * The lines of «Индекс цен без учёта структуры» (DESIGN §12.4): the hedonic index with its 95 % interval,
 * beside the average ppm brought to 100 on the same first month (what the mix does shows as the gap
 * between them); and the average's monthly change split into price and mix.
 */
export function hedonicLines(points: HedonicPoint[]): { index: ChartSeries[]; split: ChartSeries[] } {
  const line = (
    name: string,
    kind: ChartSeries['kind'],
    color: string,
    value: (p: HedonicPoint) => number | null,
  ): ChartSeries => ({ name, kind, color, data: points.map((p) => [p.date, value(p)]) });
  const base = points[0]?.avgMeterPrice;
  return {
    index: [
      line('Индекс без учёта структуры', 'avg', '#2563eb', (p) => p.index),
      line('95 %: нижняя граница', 'min', '#93c5fd', (p) => p.low),
      line('95 %: верхняя граница', 'max', '#93c5fd', (p) => p.high),
      line('Средняя цена м² (= 100 в первый месяц)', 'breakdown', '#f59e0b', (p) =>
        base ? Math.round((p.avgMeterPrice / base) * 10_000) / 100 : null,
      ),
    ],
    split: [
      line('Изменение цен, %', 'breakdown', '#2563eb', (p) => p.priceEffect),
      line('Изменение структуры, %', 'breakdown', '#f59e0b', (p) => p.mixEffect),
    ],
  };
}
