import type { CompareMetric, CompareRequest, CompareResponse } from '@cena-metra/contract';
import { unionPace } from '../analytics/pace-union.js';
import type { Db } from '../db/driver.js';
import { toDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import type { MarketReader } from './market-reader.js';

/** «Сравнение» (§10.5–10.6): each project's series of one metric over [from, to] (the days with data). */
export async function compareProjects(
  market: MarketReader,
  db: Db,
  q: Required<Omit<CompareRequest, 'projectIds' | 'metric'>> & {
    projectIds: number[];
    metric: Exclude<CompareMetric, 'hedonic'>;
  },
): Promise<CompareResponse> {
  const ids = new Set(q.projectIds);
  const found = (await market.projects(db)).filter((p) => ids.has(p.id));
  const unknown = q.projectIds.filter((id) => !found.some((p) => p.id === id));
  if (unknown.length) throw new NotFoundError(`проект ${unknown.join(', ')} не найден`);
  const summaries = await market.summaries(db, found, q.status, 'all');
  const byId = new Map(found.map((p) => [p.id, p]));
  return {
    metric: q.metric,
    series: q.projectIds.map((id) => {
      const p = byId.get(id)!;
      return {
        projectId: id,
        projectName: p.name,
        developerName: p.developer_name,
        place: p.place,
        points: unionPace([summaries.get(id)!], toDay(q.from), toDay(q.to)).map((point) => ({
          date: point.date,
          value: point[q.metric],
        })),
      };
    }),
  };
}
