import { useEffect, useRef } from 'react';
import { useDarkMode } from '../../lib/dark-mode';
import { useInView } from '../../lib/in-view';
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
  // drawn when in view: a chart below the fold costs nothing until the page is scrolled to it, and a
  // change of the filters redraws only the charts in view (the others when they come into it)
  const { inView, seen } = useInView(box);
  const chart = useEChart(box, seen);
  const dark = useDarkMode();
  const drawn = useRef<unknown[] | null>(null);

  const { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName } = look;
  useEffect(() => {
    const instance = chart.current;
    const inputs = [instance, series, smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark];
    if (drawn.current?.every((x, i) => Object.is(x, inputs[i]))) return;
    // not in view: drawn when it comes into view; `data-pending` says so (to tests and readers of the DOM)
    box.current!.dataset.pending = 'true';
    if (!inView || !instance) return;
    delete box.current!.dataset.pending;
    drawn.current = inputs;
    instance.setOption(
      chartOption(series, { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark }),
      {
        notMerge: true,
      },
    );
    // what is drawn, for tests and for people reading the DOM: series with data and the date span
    const withData = series.filter((s) => s.data.some(([, v]) => v !== null));
    box.current!.dataset.series = String(withData.length);
    box.current!.dataset.first = withData[0]?.data[0]?.[0] ?? '';
    box.current!.dataset.last = withData[0]?.data.at(-1)?.[0] ?? '';
    box.current!.dataset.gaps = String(gaps?.length ?? 0);
    // ECharts paints on its next animation frame: marked after it (the bench times redraws by it)
    requestAnimationFrame(() => performance.mark('chart:drawn', { detail: id }));
  }, [inView, id, series, smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark, chart]);

  return (
    <ChartCard id={id} title={title} chart={chart} fileName={fileName}>
      <div ref={box} className="echart w-full" style={{ height }} />
    </ChartCard>
  );
}
