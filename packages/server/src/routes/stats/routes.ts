import { MAX_STATS_RANGE_YEARS, statsRequestSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minusMonths, toDay } from '../../lib/days.js';
import { BadRequestError } from '../../lib/errors.js';

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The response is large (a point per day per group): the engine writes it as JSON text from fragments
  // serialised once per snapshot (analytics/stats-json.ts), and it is sent as is.
  app.post('/project/stats', { schema: { body: statsRequestSchema } }, async (request, reply) => {
    const { from, to } = request.body;
    if (toDay(from) > toDay(to)) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
    if (toDay(from) < minusMonths(toDay(to), MAX_STATS_RANGE_YEARS * 12))
      throw new BadRequestError(`from: период длиннее ${MAX_STATS_RANGE_YEARS} лет`);
    const json = await app.stats.getProjectStatsJson(app.deps.db, request.body);
    return reply.type('application/json; charset=utf-8').send(json);
  });
};
