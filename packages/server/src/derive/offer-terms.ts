import type { ProjectModel } from '../analytics/model.js';
import { buildDayTerms, encodeDayTerms } from '../analytics/offer-terms.js';
import type { Db } from '../db/driver.js';
import { fromDay } from '../lib/days.js';

/**
 * Keeps the avg ppm by payment term of the given snapshot days (DESIGN §11.4): a row a day whose active
 * flats price a term, none for a day without; `days` undefined: every day of the project (a rebuild).
 */
export async function keepOfferTerms(db: Db, model: ProjectModel, days?: number[]): Promise<void> {
  const list = days ? [...days].sort((a, b) => a - b) : model.dates;
  if (days) {
    if (list.length === 0) return;
    await db.query('delete from offer_day where project_id = $1 and day = any($2::date[])', [
      model.projectId,
      list.map(fromDay),
    ]);
  } else await db.query('delete from offer_day where project_id = $1', [model.projectId]);
  const sums = buildDayTerms(model.segments.values(), list);
  if (sums.size === 0) return;
  const kept = [...sums.entries()];
  await db.query(
    `insert into offer_day (project_id, day, body)
     select $1, d, b from unnest($2::date[], $3::text[]) as x(d, b)`,
    [model.projectId, kept.map(([d]) => fromDay(d)), kept.map(([, s]) => encodeDayTerms(s))],
  );
}
