// Tree-shaken ECharts: only the line, bar and scatter (the market's map) charts, the components we draw and the canvas renderer are bundled.
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  TooltipComponent,
  VisualMapContinuousComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import langRU from 'echarts/lib/i18n/langRU.js';
// the canvas renderer alone: the SVG one is loaded on demand by the SVG download (export.ts)
import { install as CanvasRenderer } from 'echarts/lib/renderer/installCanvasRenderer.js';
import { type RefObject, useEffect, useRef } from 'react';

echarts.use([
  LineChart,
  BarChart,
  ScatterChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  MarkAreaComponent,
  VisualMapContinuousComponent,
  CanvasRenderer,
]);
// month names and axis labels in Russian
echarts.registerLocale('RU', langRU);
export const CHART_LOCALE = 'RU';

export type { EChartsCoreOption } from 'echarts/core';
export { echarts };

/**
 * The ECharts instance of a box: made on mount (or when `enabled` first turns true: a chart not yet in
 * view has none), resized when the box's size changes, disposed on unmount.
 */
export function useEChart(
  box: RefObject<HTMLDivElement | null>,
  enabled = true,
): RefObject<ReturnType<typeof echarts.init> | null> {
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const el = box.current!;
    const instance = echarts.init(el, null, { renderer: 'canvas', locale: CHART_LOCALE });
    chart.current = instance;
    // the observer reports the size it starts with: a resize (a whole redraw) only when it differs
    let size = `${el.clientWidth}x${el.clientHeight}`;
    const observer = new ResizeObserver(() => {
      const now = `${el.clientWidth}x${el.clientHeight}`;
      if (now === size) return;
      size = now;
      instance.resize();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [box, enabled]);
  return chart;
}
