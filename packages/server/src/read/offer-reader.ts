import { type OfferSeriesResponse, paymentTermLabel, type StatsStatus } from '@cena-metra/contract';
import { dayTermPpm } from '../analytics/offer-terms.js';
import type { Db } from '../db/driver.js';
import { projectExists } from '../db/queries/catalog.js';
import { offerDays } from '../db/queries/kept-latest.js';
import { NotFoundError } from '../lib/errors.js';

/**
 * Avg ppm by payment term over [from, to] (DESIGN §11.4), from the days the imports keep (`offer_day`): a
 * series per term the project's lists price, a point per snapshot day with flats priced on it. No term:
 * no series (the dashboard then shows no chart).
 */
export async function offerSeries(
  db: Db,
  q: { projectId: number; from: string; to: string; status: StatsStatus },
): Promise<OfferSeriesResponse> {
  if (!(await projectExists(db, q.projectId))) throw new NotFoundError(`проект ${q.projectId} не найден`);
  const rows = await offerDays(db, q.projectId, q.from, q.to);
  const byTerm = new Map<string, OfferSeriesResponse['terms'][number]['points']>();
  for (const r of rows)
    for (const { term, avg, count } of dayTermPpm(r.body, q.status)) {
      const points = byTerm.get(term) ?? [];
      points.push({ date: r.day, avgMeterPrice: avg, count });
      byTerm.set(term, points);
    }
  return {
    terms: [...byTerm.keys()]
      .sort()
      .map((term) => ({ term, label: paymentTermLabel(term), points: byTerm.get(term)! })),
  };
}
