import { type OfferSeriesResponse, paymentTermLabel, type StatsStatus } from '@cena-metra/contract';
import { dayTermPpm } from '../analytics/offer-terms.js';
import type { Db } from '../db/driver.js';
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
  const [project] = await db.query('select 1 from project where id = $1', [q.projectId]);
  if (!project) throw new NotFoundError(`проект ${q.projectId} не найден`);
  const rows = await db.query<{ day: string; body: string }>(
    `select day::text as day, body from offer_day
     where project_id = $1 and day between $2::date and $3::date order by day`,
    [q.projectId, q.from, q.to],
  );
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
