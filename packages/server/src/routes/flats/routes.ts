import { flatCardSchema, flatParamsSchema, flatQuerySchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getFlatCard } from './queries.js';

export const flatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/flat',
    { config: { etag: true }, schema: { querystring: flatQuerySchema, response: { 200: flatCardSchema } } },
    async (request) => getFlatCard(app.deps.db, request.query.flatId),
  );
  // open: the Telegram channel links to it
  app.get(
    '/summary/flat/:flatId',
    {
      config: { public: true, etag: true },
      schema: { params: flatParamsSchema, response: { 200: flatCardSchema } },
    },
    async (request) => getFlatCard(app.deps.db, request.params.flatId),
  );
};
