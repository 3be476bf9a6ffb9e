import { useEffect, useRef } from 'react';
import { useDarkMode } from '../../lib/dark-mode';
import { ChartCard } from './chart-card';
import { useEChart } from './echarts';
import { type ChartLook, chartOption } from './options';
import type { ChartSeries } from './types';

/**
 * A time chart card: ECharts on a canvas, redrawn when its series or look change, disposed on unmount;
 * its menu downloads PNG, JPEG, PDF or SVG, prints, or goes full screen, all in the browser.
 */
export function TimeChart({
  id,
  title,
  series,
  look,
  height,
  fileName,
}: {
  id: string;
  title: string;
  series: ChartSeries[];
  look: Omit<ChartLook, 'dark'>;
  height: number;
  fileName: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useEChart(box);
  const dark = useDarkMode();

  const { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName } = look;
  useEffect(() => {
    const instance = chart.current!;
    instance.setOption(
      chartOption(series, { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark }),
      {
        notMerge: true,
      },
    );
    // what is drawn, for tests and for people reading the DOM: series with data and the date span
    const drawn = series.filter((s) => s.data.some(([, v]) => v !== null));
    box.current!.dataset.series = String(drawn.length);
    box.current!.dataset.first = drawn[0]?.data[0]?.[0] ?? '';
    box.current!.dataset.last = drawn[0]?.data.at(-1)?.[0] ?? '';
    box.current!.dataset.gaps = String(gaps?.length ?? 0);
  }, [series, smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark, chart]);

  return (
    <ChartCard id={id} title={title} chart={chart} fileName={fileName}>
      <div ref={box} className="echart w-full" style={{ height }} />
    </ChartCard>
  );
}
