import { priceChangesQuerySchema, priceChangesResponseSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getPriceChanges, getPriceChangesCsv } from './queries.js';

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/price-changes',
    {
      config: { etag: true },
      schema: { querystring: priceChangesQuerySchema, response: { 200: priceChangesResponseSchema } },
    },
    async (request) => getPriceChanges(app.deps.db, request.query),
  );
  app.get(
    '/price-changes.csv',
    { config: { etag: true }, schema: { querystring: priceChangesQuerySchema } },
    async (request, reply) => {
      const csv = await getPriceChangesCsv(app.deps.db, request.query);
      const name = `price-changes-${request.query.from}-${request.query.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
    },
  );
};
