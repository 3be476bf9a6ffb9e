import { monthOfDay, projectMonthSums } from '../analytics/hedonic-observations.js';
import type { ProjectModel } from '../analytics/model.js';
import type { Db } from '../db/driver.js';
import { saveHedonicMonths } from '../db/queries/hedonic.js';
import { projectsWithPace } from '../db/queries/kept-pace.js';
import { loadModel } from '../db/queries/model.js';

/**
 * Keeps the project's hedonic sums (DESIGN §12.4) of the months from the one before `fromDay`'s on (every
 * month when null): a month's state is that of its last day with data, which a list of the next month can
 * move (the day the month's last list carries to); a change never reaches further back.
 */
export async function keepHedonic(db: Db, model: ProjectModel, fromDay: number | null): Promise<void> {
  const dates = model.dates;
  if (dates.length === 0) return saveHedonicMonths(db, model.projectId, null, []);
  const first = monthOfDay(dates[0]);
  const from = fromDay === null ? first : Math.max(first, monthOfDay(fromDay) - 1);
  const to = monthOfDay(dates[dates.length - 1]);
  const sums = projectMonthSums(model.projectId, dates, model.segments.values(), model.carry, from, to);
  await saveHedonicMonths(db, model.projectId, fromDay === null ? null : from, sums);
}

/** Keeps every project's hedonic sums from its timeline as kept (after migration 33). */
export async function keepHedonicOfAll(
  db: Db,
  grace: number,
  carry: number,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const projects = await projectsWithPace(db);
  for (const [i, { id }] of projects.entries()) {
    await db.transaction(async (tx) => keepHedonic(tx, await loadModel(tx, id, grace, carry), null));
    onProgress?.(i + 1, projects.length);
  }
}
