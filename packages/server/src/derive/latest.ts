import { STATS_STATUSES } from '@cena-metra/contract';
import { projectDiscountsAll } from '../analytics/discounts.js';
import { ppmDistribution } from '../analytics/distribution.js';
import type { ProjectModel } from '../analytics/model.js';
import { type FlatOnDay, recordCounts, shortFlatSummary } from '../analytics/stats.js';
import { flatOnDay } from '../analytics/windows.js';
import type { Db } from '../db/driver.js';
import { saveActiveLatest, saveLatest } from '../db/queries/kept-latest.js';
import { segmentArray } from '../db/records.js';
import { fromDay } from '../lib/days.js';

/** The flats active on the project's last snapshot day with their discount references (§4.2), flat order. */
export function flatsOnLastDay(model: ProjectModel): FlatOnDay[] {
  const n = model.dates.length;
  if (n === 0) return [];
  const last = model.dates[n - 1];
  const out: FlatOnDay[] = [];
  for (const segs of model.segments.values()) {
    const f = flatOnDay(segs, last, last);
    if (f) out.push(f);
  }
  return out.sort((a, b) => a.flatId - b.flatId);
}

/**
 * The project's segments active on its last snapshot day — each flat's (flat order) whose span holds the
 * day, in day order — as the JSON its kept row holds (active_latest): what `latestActiveSegments` reads of it.
 * A model of an append's window holds every segment running in the window, the last day's among them.
 */
export function activeOnLastDay(model: ProjectModel): string {
  const last = model.dates[model.dates.length - 1];
  const out: unknown[][] = [];
  for (const id of [...model.segments.keys()].sort((a, b) => a - b))
    for (const s of model.segments.get(id)!)
      if (s.startDay <= last && (s.endDay === null || s.endDay >= last)) out.push(segmentArray(s));
  return JSON.stringify(out);
}

/**
 * Keeps what the dashboard first shows of the project's last snapshot day, per status: the summary table
 * (§4.2, A = the last day) and the ppm distribution (§10.5), as the JSON the responses carry, and the
 * project's discounts of every period and basis (§4.3) that the market's discounts table reads. Every import
 * of the project rewrites them (a list within the last year moves the discount windows too).
 */
export async function keepLatest(db: Db, model: ProjectModel): Promise<void> {
  const n = model.dates.length;
  if (n === 0) {
    await saveActiveLatest(db, model.projectId, null, '');
    return saveLatest(db, model.projectId, null, []);
  }
  const day = fromDay(model.dates[n - 1]);
  await saveActiveLatest(db, model.projectId, day, activeOnLastDay(model));
  const flats = flatsOnLastDay(model);
  const rows = STATS_STATUSES.map((status) => {
    const own = flats.filter((f) => recordCounts(f.rec, status));
    return {
      status,
      summary: JSON.stringify(shortFlatSummary(own)),
      distribution: JSON.stringify({ date: day, groups: ppmDistribution(own.map((f) => f.rec)) }),
      discounts: JSON.stringify(projectDiscountsAll(own)),
    };
  });
  await saveLatest(db, model.projectId, day, rows);
}
