import { drain, type Steps } from '../lib/steps.js';
import {
  fitSumsSteps,
  type HedonicObservation,
  type ProjectPeriodSums,
  projectPeriodSums,
} from './hedonic.js';

/**
 * The hedonic index of DESIGN §12.4: each period's link is its step from the period before, read from the
 * window of `window` periods ending with it (rolling time-dummy); the index chains the links. A link once
 * made is never revised: later periods have windows of their own.
 */

/** Periods in the rolling window: 13 months (a year and the month a year before). */
export const HEDONIC_WINDOW = 13;
/** z of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** A period's step, as the window ending with it measures it. */
export interface HedonicLink {
  period: number;
  /** the window's latest period before this one with observations; null when there is none */
  previous: number | null;
  /** δ(period) − δ(previous), ln */
  change: number;
  /** its variance */
  variance: number;
  /** the period's observations and projects in the fit */
  observations: number;
  projects: number;
  /** Σ price / Σ area of the period's observations, and of the previous period's in the same window */
  avgMeterPrice: number;
  previousAvgMeterPrice: number | null;
  /** projects of the window left out for too few observations */
  dropped: number;
}

/** The link of `period` from projects' period sums (others than its window's are ignored). */
export function linkOfSums(
  rows: readonly ProjectPeriodSums[],
  period: number,
  window = HEDONIC_WINDOW,
  minObservations = 5,
): HedonicLink | null {
  return drain(linkOfSumsSteps(rows, period, window, minObservations));
}

/** `linkOfSums` in steps: its window's fit's (`fitSumsSteps`). */
function* linkOfSumsSteps(
  rows: readonly ProjectPeriodSums[],
  period: number,
  window: number,
  minObservations: number,
): Steps<HedonicLink | null> {
  const fit = yield* fitSumsSteps(rows, period - window + 1, period, minObservations);
  const here = fit?.byPeriod.get(period);
  if (!fit || !here) return null;
  const at = fit.periods.indexOf(period);
  const previous = at > 0 ? fit.periods[at - 1] : null;
  const before = previous === null ? null : fit.byPeriod.get(previous)!;
  return {
    period,
    previous,
    change: previous === null ? 0 : fit.delta.get(period)! - fit.delta.get(previous)!,
    variance:
      previous === null
        ? 0
        : fit.covariance(period, period) +
          fit.covariance(previous, previous) -
          2 * fit.covariance(period, previous),
    observations: here.observations,
    projects: here.projects,
    avgMeterPrice: here.sumPrice / here.sumArea,
    previousAvgMeterPrice: before ? before.sumPrice / before.sumArea : null,
    dropped: fit.dropped,
  };
}

/** One point of the index. Percents are of the step from the point before; null on the first point. */
export interface HedonicPoint {
  period: number;
  index: number;
  /** the index's change, % */
  change: number | null;
  /** the 95 % interval of the index at this point, given the point before */
  low: number;
  high: number;
  observations: number;
  projects: number;
  avgMeterPrice: number;
  /** the average ppm's change split: price (the index's change) and mix (the rest), % */
  priceEffect: number | null;
  mixEffect: number | null;
}

/**
 * Chains links (ascending by period) into the index: 100 at the first, each next point the one before
 * times exp(its link's change).
 */
export function chainLinks(links: readonly HedonicLink[]): HedonicPoint[] {
  const points: HedonicPoint[] = [];
  for (const link of links) {
    const last = points.at(-1);
    if (!last) {
      points.push({
        period: link.period,
        index: 100,
        change: null,
        low: 100,
        high: 100,
        observations: link.observations,
        projects: link.projects,
        avgMeterPrice: link.avgMeterPrice,
        priceEffect: null,
        mixEffect: null,
      });
      continue;
    }
    const step = Math.exp(link.change);
    const spread = Z95 * Math.sqrt(Math.max(0, link.variance));
    // the average's change over the same two periods of the same window (so the same projects)
    const avgStep =
      link.previousAvgMeterPrice === null ? null : link.avgMeterPrice / link.previousAvgMeterPrice;
    points.push({
      period: link.period,
      index: last.index * step,
      change: (step - 1) * 100,
      low: last.index * Math.exp(link.change - spread),
      high: last.index * Math.exp(link.change + spread),
      observations: link.observations,
      projects: link.projects,
      avgMeterPrice: link.avgMeterPrice,
      priceEffect: (step - 1) * 100,
      mixEffect: avgStep === null ? null : (avgStep / step - 1) * 100,
    });
  }
  return points;
}

/** The index over periods [from, to] from observations (each period's window read from them). */
export function hedonicIndex(
  observations: readonly HedonicObservation[],
  from: number,
  to: number,
  window = HEDONIC_WINDOW,
  minObservations = 5,
): { points: HedonicPoint[]; dropped: number } {
  const first = from - window + 1;
  return indexOfSums(
    projectPeriodSums(observations.filter((o) => o.period >= first && o.period <= to)),
    from,
    to,
    window,
    minObservations,
  );
}

/** The index over periods [from, to] from projects' period sums. */
export function indexOfSums(
  rows: readonly ProjectPeriodSums[],
  from: number,
  to: number,
  window = HEDONIC_WINDOW,
  minObservations = 5,
): { points: HedonicPoint[]; dropped: number } {
  return indexOfLinks(linksOfSums(rows, from, to, window, minObservations));
}

/** The links of periods [from, to] (those with a fit) from projects' period sums. */
export function linksOfSums(
  rows: readonly ProjectPeriodSums[],
  from: number,
  to: number,
  window = HEDONIC_WINDOW,
  minObservations = 5,
): HedonicLink[] {
  return drain(linksOfSumsSteps(rows, from, to, window, minObservations));
}

/**
 * `linksOfSums` in steps (lib/steps.ts): after the sort, and each window's fit in its own (`fitSumsSteps`) —
 * a server's round fits the whole market's windows in slices of its thread.
 */
export function* linksOfSumsSteps(
  rows: readonly ProjectPeriodSums[],
  from: number,
  to: number,
  window = HEDONIC_WINDOW,
  minObservations = 5,
): Steps<HedonicLink[]> {
  // each window's rows: the periods of [p − window + 1, p], taken from rows sorted once by period
  const sorted = [...rows].sort((a, b) => a.period - b.period);
  yield;
  const links: HedonicLink[] = [];
  let start = 0;
  let end = 0;
  for (let p = from; p <= to; p++) {
    while (start < sorted.length && sorted[start].period < p - window + 1) start++;
    while (end < sorted.length && sorted[end].period <= p) end++;
    if (end === start) continue;
    const link = yield* linkOfSumsSteps(sorted.slice(start, end), p, window, minObservations);
    if (link) links.push(link);
  }
  return links;
}

/** The index of chained links (ascending), and the projects the last link's window left out. */
export const indexOfLinks = (links: readonly HedonicLink[]) => ({
  points: chainLinks(links),
  dropped: links.at(-1)?.dropped ?? 0,
});
