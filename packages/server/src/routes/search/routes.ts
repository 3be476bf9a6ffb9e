import { searchQuerySchema, searchResponseSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { search } from '../../use-cases/reads.js';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search',
    {
      config: { etag: true },
      schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema } },
    },
    async (request) => search(app.reads, request.query.q),
  );
};
