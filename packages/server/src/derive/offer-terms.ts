import type { ProjectModel } from '../analytics/model.js';
import { buildDayTerms, encodeDayTerms } from '../analytics/offer-terms.js';
import type { Db } from '../db/driver.js';
import { saveOfferDays } from '../db/queries/kept-latest.js';
import { fromDay } from '../lib/days.js';

/**
 * Keeps the avg ppm by payment term of the given snapshot days (DESIGN §11.4): a row a day whose active
 * flats price a term, none for a day without; `days` undefined: every day of the project (a rebuild).
 */
export async function keepOfferTerms(db: Db, model: ProjectModel, days?: number[]): Promise<void> {
  const list = days ? [...days].sort((a, b) => a - b) : model.dates;
  if (days && list.length === 0) return;
  const kept = [...buildDayTerms(model.segments.values(), list).entries()];
  await saveOfferDays(
    db,
    model.projectId,
    days ? list.map(fromDay) : null,
    kept.map(([d, s]) => ({ day: fromDay(d), body: encodeDayTerms(s) })),
  );
}
