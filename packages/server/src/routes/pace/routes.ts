import {
  indexRequestSchema,
  indexResponseSchema,
  MAX_STATS_RANGE_YEARS,
  paceRequestSchema,
  paceResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minusMonths, toDay } from '../../lib/days.js';
import { BadRequestError } from '../../lib/errors.js';

/** The range checks of every series request: from ≤ to, at most 15 years. */
function checkRange(from: string, to: string) {
  if (toDay(from) > toDay(to)) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
  if (toDay(from) < minusMonths(toDay(to), MAX_STATS_RANGE_YEARS * 12))
    throw new BadRequestError(`from: период длиннее ${MAX_STATS_RANGE_YEARS} лет`);
}

/** Sales pace (§10.5) and the same-flat index (§10.6) of a project. */
export const paceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/project/pace',
    { config: { cache: true }, schema: { body: paceRequestSchema, response: { 200: paceResponseSchema } } },
    async (request) => {
      checkRange(request.body.from, request.body.to);
      return app.pace.pace(app.deps.db, request.body);
    },
  );
  app.post(
    '/project/index',
    { config: { cache: true }, schema: { body: indexRequestSchema, response: { 200: indexResponseSchema } } },
    async (request) => {
      checkRange(request.body.from, request.body.to);
      return app.pace.index(app.deps.db, request.body);
    },
  );
};
