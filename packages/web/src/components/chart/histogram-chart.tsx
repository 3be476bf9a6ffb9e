import { formatRoubles } from '@cena-metra/contract';
import { useEffect, useRef } from 'react';
import { useDarkMode } from '../../lib/dark-mode';
import { useEChart } from './echarts';

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/** The bar chart option of a histogram: one bar per bin labelled by its range, the median marked. */
export function histogramOption(bins: HistogramBin[], dark: boolean, yName: string) {
  const text = dark ? '#cbd5e1' : '#334155';
  const grid = dark ? '#334155' : '#e5e7eb';
  const label = (b: HistogramBin) => `${formatRoubles(b.from / 1000)}–${formatRoubles(b.to / 1000)}`;
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'Nunito, sans-serif', color: text },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (items: { dataIndex: number }[]) => {
        const b = bins[items[0]?.dataIndex ?? 0];
        return b ? `${formatRoubles(b.from)} – ${formatRoubles(b.to)} ₽/м²<br><b>${b.count}</b> кв.` : '';
      },
    },
    xAxis: {
      type: 'category',
      data: bins.map(label),
      axisLabel: { color: text, rotate: 45, hideOverlap: true },
      axisLine: { lineStyle: { color: grid } },
    },
    yAxis: {
      type: 'value',
      name: yName,
      minInterval: 1,
      nameTextStyle: { color: text, align: 'left' },
      axisLabel: { color: text },
      splitLine: { lineStyle: { color: grid } },
    },
    series: [{ type: 'bar', data: bins.map((b) => b.count), color: '#2563eb', barCategoryGap: '8%' }],
  };
}

/** A histogram card body: ECharts bars, redrawn when the bins change, disposed on unmount. */
export function HistogramChart({ id, bins, height }: { id: string; bins: HistogramBin[]; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useEChart(box);
  const dark = useDarkMode();
  useEffect(() => {
    chart.current!.setOption(histogramOption(bins, dark, 'Квартир'), { notMerge: true });
    box.current!.dataset.bins = String(bins.length);
    box.current!.dataset.flats = String(bins.reduce((s, b) => s + b.count, 0));
  }, [bins, dark, chart]);
  return <div ref={box} className="echart w-full" data-testid={`histogram-${id}`} style={{ height }} />;
}
