import { fairResponseSchema, flatCardSchema, flatParamsSchema, flatQuerySchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getFlatCard } from '../../use-cases/reads.js';

export const flatRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The card with the flat's ppm percentile among its project's flats of its room group (§10.5's stock). */
  const card = async (flatId: number) => {
    const flat = await getFlatCard(app.reads, flatId);
    return { ...flat, percentile: await app.pace.percentile(app.reads, flat.projectId, flat.flatId) };
  };
  app.get(
    '/flat',
    { config: { etag: true }, schema: { querystring: flatQuerySchema, response: { 200: flatCardSchema } } },
    async (request) => card(request.query.flatId),
  );
  /** The flat's fair price and its comparables (DESIGN §12.4). */
  app.get(
    '/flat/fair',
    {
      config: { etag: true },
      schema: { querystring: flatQuerySchema, response: { 200: fairResponseSchema } },
    },
    async (request) => app.fair.fair(app.reads, request.query.flatId),
  );
  // open: the Telegram channel links to it
  app.get(
    '/summary/flat/:flatId',
    {
      config: { etag: true },
      schema: { params: flatParamsSchema, response: { 200: flatCardSchema } },
    },
    async (request) => card(request.params.flatId),
  );
};
