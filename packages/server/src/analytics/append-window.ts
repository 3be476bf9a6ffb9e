import { minusMonths } from '../lib/days.js';
import { gapBetween } from './carry.js';
import { partialScans } from './quality.js';

/** What a project's model knows of its snapshots without their flats: enough to place a new one. */
export interface SnapshotDays {
  dates: number[];
  sizes: Map<number, number>;
  completes: Set<number>;
  /** the partial snapshots as last computed (stored) */
  partial: Set<number>;
  grace: number;
  carry: number;
}

/** The part of a project's history a plain append reads (see {@link appendWindow}). */
export interface AppendWindow {
  /** a flat whose latest row is older than this day keeps its activity and events (ProjectModel.recompute) */
  recentFrom: number;
  /** the segments running on or after this day are all the append's kept data read */
  segmentsFrom: number;
}

/**
 * Whether a list of `size` flats at `day` is a plain append (DESIGN §11.1: one new day costs that day): a
 * snapshot after the last one, with no days without data before it (§10.1), that leaves every earlier
 * snapshot's partial flag (§10.4) as it was. Its recompute looks only at the flats with a row from
 * `recentFrom` on and those the list changes; what the import keeps then reads only the segments running
 * from `segmentsFrom` on — the cubes and events of the last `grace` + 1 snapshots, the pace sweep from the
 * snapshot before them, the discount windows of the last year (§4.3) — and the project's buildings. Null
 * when it is anything else (a first list, a back-fill, a replaced list, a gap, a count that moves other
 * flags): then the whole history is read, as by a rebuild.
 */
export function appendWindow(
  days: SnapshotDays,
  day: number,
  size: number,
  complete: boolean,
): AppendWindow | null {
  const n = days.dates.length;
  if (n === 0 || day <= days.dates[n - 1] || gapBetween(days.dates[n - 1], day, days.carry)) return null;
  const dates = [...days.dates, day];
  const sizes = dates.map((d) => ({
    day: d,
    flats: d === day ? size : (days.sizes.get(d) ?? 0),
    complete: d === day ? complete : days.completes.has(d),
  }));
  const partial = new Set(partialScans(sizes, days.carry).map((p) => p.day));
  for (const d of days.dates) if (partial.has(d) !== days.partial.has(d)) return null;
  // as ProjectModel.recompute reads an append at index n: the grace window before it, reaching back over
  // a run of partial snapshots just before it
  let chain = n;
  while (chain > 0 && partial.has(dates[chain - 1])) chain--;
  const recentFrom = dates[Math.max(0, chain - days.grace - 1)];
  const cubeFrom = Math.max(0, n - days.grace - 1);
  const paceFrom = dates[Math.max(0, cubeFrom - 1)];
  return { recentFrom, segmentsFrom: Math.min(recentFrom, paceFrom, minusMonths(day, 12)) };
}
