import { MAX_STATS_RANGE_YEARS, statsRequestSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minusMonths, toDay } from '../../lib/days.js';
import { BadRequestError } from '../../lib/errors.js';

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The response is large (a point per day per group); it is built to the contract's shape by the engine
  // and serialised without re-validating thousands of points on every request.
  app.post('/project/stats', { schema: { body: statsRequestSchema } }, async (request) => {
    const { from, to } = request.body;
    if (toDay(from) > toDay(to)) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
    if (toDay(from) < minusMonths(toDay(to), MAX_STATS_RANGE_YEARS * 12))
      throw new BadRequestError(`from: период длиннее ${MAX_STATS_RANGE_YEARS} лет`);
    return app.stats.getProjectStats(app.deps.db, request.body);
  });
};
