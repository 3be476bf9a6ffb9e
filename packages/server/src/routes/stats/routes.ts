import { statsRequestSchema, statsResponseSchema } from '@cena-metra/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptedEncoding } from '../../read/encoding.js';
import { checkSeriesRange } from '../range.js';

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The response is large (a point per day per group): the engine writes it as JSON bytes from fragments
  // serialised once per snapshot (analytics/stats-json.ts), keeps recent bodies (and their gzip/brotli
  // forms) per data version, and tags them with an ETag of that version.
  app.post(
    '/project/stats',
    // the schema documents the response (OpenAPI); the body is sent as prepared bytes, not re-serialised
    { schema: { body: statsRequestSchema, response: { 200: statsResponseSchema } } },
    async (request, typedReply) => {
      // prepared bytes and 304s are outside the typed (schema) reply
      const reply = typedReply as unknown as FastifyReply;
      checkSeriesRange(request.body.from, request.body.to);
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      const ifNoneMatch = request.headers['if-none-match'];
      const res = await app.stats.statsResponse(app.deps.db, request.body, encoding, ifNoneMatch);
      // «только свободные» is the switch analysts flip next: its body is made ahead, while the server is idle
      const other = { ...request.body, status: request.body.status === 'ALL' ? 'AVAILABLE' : 'ALL' } as const;
      app.idleWork.add(`stats ${JSON.stringify(other)} ${encoding}`, () =>
        app.stats.statsResponse(app.deps.db, other, encoding),
      );
      reply
        .header('etag', res.etag)
        .header('vary', 'accept-encoding')
        .header('cache-control', 'private, no-cache');
      if (res.body === null) return reply.code(304).send();
      if (res.encoding) reply.header('content-encoding', res.encoding);
      return reply.type('application/json; charset=utf-8').send(res.body);
    },
  );
};
