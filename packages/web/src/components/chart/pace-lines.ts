import type { PacePointView } from '@cena-metra/contract';
import type { ChartSeries } from './types';

/** The lines of the pace charts (§10.5): stock with new and gone over 30 days, and absorption. */
export function paceLines(points: PacePointView[]): { stock: ChartSeries[]; absorption: ChartSeries[] } {
  const line = (name: string, color: string, value: (p: PacePointView) => number | null): ChartSeries => ({
    name,
    kind: 'breakdown',
    color,
    data: points.map((p) => [p.date, value(p)]),
  });
  return {
    stock: [
      line('В продаже', '#2563eb', (p) => p.stock),
      line('Новые за 30 дн.', '#10b981', (p) => p.new30),
      line('Выбыли за 30 дн.', '#ef4444', (p) => p.gone30),
    ],
    absorption: [line('Вымываемость 30 дн., %', '#8b5cf6', (p) => p.absorption)],
  };
}
