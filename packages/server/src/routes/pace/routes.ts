import {
  distributionRequestSchema,
  distributionResponseSchema,
  indexRequestSchema,
  indexResponseSchema,
  paceRequestSchema,
  paceResponseSchema,
  paceRowsRequestSchema,
  paceRowsResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asMade, checkSeriesRange } from '../range.js';

/** Sales pace (§10.5) and the same-flat index (§10.6) of a project. */
export const paceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/project/pace',
    {
      config: { cache: true },
      schema: { body: paceRequestSchema, response: { 200: paceResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return app.pace.pace(app.reads, request.body);
    },
  );
  app.post(
    '/project/pace/rows',
    {
      config: { cache: true },
      schema: { body: paceRowsRequestSchema, response: { 200: paceRowsResponseSchema } },
    },
    async (request) => app.pace.rows(app.reads, request.body),
  );
  app.post(
    '/project/distribution',
    {
      config: { cache: true },
      schema: { body: distributionRequestSchema, response: { 200: distributionResponseSchema } },
    },
    async (request) => app.pace.distribution(app.reads, request.body),
  );
  app.post(
    '/project/index',
    {
      config: { cache: true },
      schema: { body: indexRequestSchema, response: { 200: indexResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return app.pace.index(app.reads, request.body);
    },
  );
};
