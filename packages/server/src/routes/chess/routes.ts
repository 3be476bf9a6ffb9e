import { chessQuerySchema, chessResponseSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The chessboard of a building on a day (DESIGN §10.7). */
export const chessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/chess',
    {
      config: { etag: true },
      schema: { querystring: chessQuerySchema, response: { 200: chessResponseSchema } },
    },
    async (request) => app.chess.chess(app.reads, request.query),
  );
};
