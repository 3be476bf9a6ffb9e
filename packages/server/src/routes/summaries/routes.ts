import {
  summariesQuerySchema,
  summaryListSchema,
  summaryParamsSchema,
  summaryProjectParamsSchema,
  summaryProjectSchema,
  summarySchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getSummaries, getSummary, getSummaryProject } from '../../use-cases/reads.js';

/** Open on purpose: the Telegram channel links to the summaries (DESIGN §5). */
export const summaryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/summaries',
    {
      config: { etag: true },
      schema: { querystring: summariesQuerySchema, response: { 200: summaryListSchema } },
    },
    async (request) => getSummaries(app.reads, request.query.limit, request.query.before),
  );
  app.get(
    '/summary/:id',
    {
      config: { etag: true },
      schema: { params: summaryParamsSchema, response: { 200: summarySchema } },
    },
    async (request) => getSummary(app.reads, request.params.id, app.deps.config.maxCarryDays),
  );
  app.get(
    '/summary/:id/project/:projectId',
    {
      config: { etag: true },
      schema: { params: summaryProjectParamsSchema, response: { 200: summaryProjectSchema } },
    },
    async (request) =>
      getSummaryProject(app.reads, request.params.id, request.params.projectId, app.deps.config.maxCarryDays),
  );
};
