import type { RoomGroup } from '@cena-metra/contract';
import { medianOfSorted } from './median.js';
import { GROUP_FILTERS, GROUPS } from './stats.js';

/** A price per m² histogram of one room group: bins of a common width, the count and the median. */
export interface GroupDistribution {
  group: RoomGroup;
  count: number;
  median: number | null;
  bins: { from: number; to: number; count: number }[];
}

const STEPS = [1, 2, 2.5, 5];

/** A round bin width (1, 2, 2.5 or 5 × 10ⁿ ₽) giving about `target` bins over [min, max]. */
export function niceWidth(min: number, max: number, target = 20): number {
  const raw = Math.max(1, (max - min) / target);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const s of STEPS) if (s * power >= raw) return s * power;
  return 10 * power;
}

/**
 * The distribution of the flats' ppm per room group: one bin width for every group (so they read side by
 * side), bins from the first one holding a flat to the last, each [from, to) but the last closed.
 */
export function ppmDistribution(
  flats: { rooms: number; price: number; area: number }[],
): GroupDistribution[] {
  const ppm = flats.map((f) => ({ rooms: f.rooms, v: f.price / f.area }));
  if (ppm.length === 0) return GROUPS.map((group) => ({ group, count: 0, median: null, bins: [] }));
  const min = Math.min(...ppm.map((p) => p.v));
  const max = Math.max(...ppm.map((p) => p.v));
  const width = niceWidth(min, max);
  const start = Math.floor(min / width) * width;
  const n = Math.max(1, Math.floor((max - start) / width) + 1);
  return GROUPS.map((group) => {
    const accept = GROUP_FILTERS[group];
    const values = ppm.filter((p) => accept(p.rooms)).map((p) => p.v);
    const counts = new Array<number>(n).fill(0);
    for (const v of values) counts[Math.min(n - 1, Math.floor((v - start) / width))]++;
    let first = counts.findIndex((c) => c > 0);
    let last = counts.length - 1 - [...counts].reverse().findIndex((c) => c > 0);
    if (first < 0) first = last = -1;
    const sorted = values.sort((a, b) => a - b);
    const median = medianOfSorted(sorted);
    return {
      group,
      count: values.length,
      median: median === null ? null : Math.round(median * 100) / 100,
      bins:
        first < 0
          ? []
          : counts.slice(first, last + 1).map((count, i) => ({
              from: start + (first + i) * width,
              to: start + (first + i + 1) * width,
              count,
            })),
    };
  });
}

/** The share (%) of `others` whose ppm is at most `ppm`, the flat itself among them: its percentile. */
export function ppmPercentile(ppm: number, others: number[]): number | null {
  if (others.length === 0) return null;
  let atMost = 0;
  for (const v of others) if (v <= ppm + 1e-9) atMost++;
  return Math.round((atMost / others.length) * 1000) / 10;
}
