import { formatDecimal2, formatRoubles } from '@cena-metra/contract';
import type { EChartsCoreOption } from 'echarts/core';
import type { ChartSeries, DateBand } from './types';

export interface ChartLook {
  /** smooth lines when true, steps (value held until the next point) when false */
  smooth: boolean;
  /** always steps, whatever `smooth` says (the flat-count chart) */
  alwaysSteps?: boolean;
  yName: string;
  dark: boolean;
  /** values are counts, not roubles */
  counts?: boolean;
  /** values with two decimals (percent, index), not whole roubles */
  decimals?: boolean;
  /** the name of the right-hand axis, for the series drawn against it (`axis: 'right'`) */
  rightName?: string;
  /** spans without data, shaded and labelled «нет данных» (no line crosses them: the series break there) */
  gaps?: DateBand[];
}

/** Whether a point has no neighbour with a value: no line would show it. */
export function hasIsolatedPoint(data: ChartSeries['data']): boolean {
  for (let i = 0; i < data.length; i++)
    if (
      data[i][1] !== null &&
      (i === 0 || data[i - 1][1] === null) &&
      (i === data.length - 1 || data[i + 1][1] === null)
    )
      return true;
  return false;
}

/** A day's local midnight in ms: how ECharts reads a 'YYYY-MM-DD' string on a time axis. */
function dayMs(iso: string): number {
  return new Date(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)).getTime();
}

/**
 * A series' points packed as ECharts takes them fastest: [x₀, y₀, x₁, y₁, …] in a typed array, the day as
 * ms and no value as NaN (a break in the line, as null was). setOption neither deep-copies a typed array
 * nor parses a date string per point; with nine charts of three years that was most of a redraw.
 * `days` remembers the days parsed for the other series of the same chart.
 */
export function packPoints(data: ChartSeries['data'], days = new Map<string, number>()): Float64Array {
  const packed = new Float64Array(data.length * 2);
  for (let i = 0; i < data.length; i++) {
    const [date, value] = data[i];
    let ms = days.get(date);
    if (ms === undefined) {
      ms = dayMs(date);
      days.set(date, ms);
    }
    packed[2 * i] = ms;
    packed[2 * i + 1] = value ?? Number.NaN;
  }
  return packed;
}

/** The ECharts option of a time chart: date x axis with zoom, min/avg/max and breakdown series. */
export function chartOption(series: ChartSeries[], look: ChartLook): EChartsCoreOption {
  const text = look.dark ? '#cbd5e1' : '#334155';
  const grid = look.dark ? '#334155' : '#e5e7eb';
  const steps = look.alwaysSteps || !look.smooth;
  const number = look.decimals ? formatDecimal2 : formatRoubles;
  const format = (v: unknown) => (typeof v === 'number' && !Number.isNaN(v) ? number(v) : '—');
  const right = series.some((s) => s.axis === 'right');
  const days = new Map<string, number>();
  const packed = series.map((s) => packPoints(s.data, days));
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const ms of days.values()) {
    if (ms < first) first = ms;
    if (ms > last) last = ms;
  }
  const span = days.size ? last - first : 0;
  const wide = (g: DateBand) => dayMs(g.to) - dayMs(g.from) >= span * 0.12;
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'Nunito, sans-serif', color: text },
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      itemWidth: 14,
      itemGap: 8,
      textStyle: { color: text },
      pageTextStyle: { color: text },
    },
    grid: { left: 8, right: 16, top: 64, bottom: 56, containLabel: true },
    tooltip: {
      trigger: 'axis',
      // a series on the right-hand axis (the index) has two decimals
      ...(right
        ? {
            formatter: (
              items: {
                marker: string;
                seriesName: string;
                axisValueLabel: string;
                value: [number, unknown];
                seriesIndex: number;
              }[],
            ) =>
              items.length === 0
                ? ''
                : [
                    items[0].axisValueLabel,
                    ...items.map((it) => {
                      const v = it.value[1];
                      const text =
                        typeof v !== 'number' || Number.isNaN(v)
                          ? '—'
                          : series[it.seriesIndex]?.axis === 'right'
                            ? formatDecimal2(v)
                            : number(v);
                      return `${it.marker}${it.seriesName}: <b>${text}</b>`;
                    }),
                  ].join('<br>'),
          }
        : { valueFormatter: format }),
      confine: true,
      order: 'valueDesc',
    },
    xAxis: {
      type: 'time',
      // every label says its year: «янв 2025», not a bare «Июл»
      axisLabel: {
        color: text,
        hideOverlap: true,
        formatter: { year: '{yyyy}', month: '{MMM} {yyyy}', day: '{d} {MMM}', hour: '{d} {MMM}' },
      },
      axisLine: { lineStyle: { color: grid } },
      splitLine: { show: false },
    },
    yAxis: [
      {
        type: 'value',
        name: look.yName,
        nameTextStyle: { color: text, align: 'left' },
        nameGap: 12,
        scale: true,
        // flats are whole: no tick between 2 and 3 that would read «3, 3, 2, 2»
        ...(look.counts && { minInterval: 1 }),
        axisLabel: { color: text, formatter: (v: number) => number(v) },
        splitLine: { lineStyle: { color: grid } },
      },
      ...(right
        ? [
            {
              type: 'value',
              name: look.rightName,
              nameTextStyle: { color: text, align: 'right' },
              nameGap: 12,
              scale: true,
              axisLabel: { color: text, formatter: (v: number) => formatDecimal2(v) },
              splitLine: { show: false },
            },
          ]
        : []),
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, height: 18, bottom: 8, filterMode: 'none' },
    ],
    series: series.map((s, i) => ({
      type: 'line',
      name: s.name,
      data: packed[i],
      yAxisIndex: s.axis === 'right' ? 1 : 0,
      // a day between gaps (or a single list) is a point no line reaches: then the points are drawn
      showSymbol: hasIsolatedPoint(s.data),
      symbolSize: 4,
      connectNulls: false,
      smooth: steps ? false : 0.3,
      step: steps ? 'end' : false,
      sampling: 'lttb',
      color: s.kind === 'avg' && look.dark ? '#f8fafc' : s.color,
      lineStyle: {
        width: s.kind === 'avg' ? 3 : s.kind === 'breakdown' || s.kind === 'count' ? 1.5 : 1,
        type: s.kind === 'min' || s.kind === 'max' ? 'dashed' : 'solid',
      },
      emphasis: { focus: 'series' },
      z: s.kind === 'avg' ? 3 : 2,
      ...(i === 0 && look.gaps?.length
        ? {
            markArea: {
              silent: true,
              itemStyle: { color: look.dark ? 'rgba(148, 163, 184, 0.14)' : 'rgba(148, 163, 184, 0.22)' },
              label: { show: true, position: 'insideTop', color: text, formatter: 'нет данных' },
              // a narrow band stays unlabelled: labels of close bands would run into each other
              data: look.gaps.map((g) => [
                { xAxis: g.from, ...(wide(g) ? {} : { label: { show: false } }) },
                { xAxis: g.to },
              ]),
            },
          }
        : {}),
    })),
  };
}
