import { Readable } from 'node:stream';
import { offerSeriesResponseSchema, statsRequestSchema, statsResponseSchema } from '@cena-metra/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptedEncoding } from '../../read/encoding.js';
import { offerSeries } from '../../read/offer-reader.js';
import { checkSeriesRange } from '../range.js';

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The response is large (a point per day per group): it is written as JSON bytes from each snapshot's
  // fragments, kept by the import (derive/series.ts, read/stats-json.ts), recent bodies (and their
  // gzip/brotli forms) are kept per data version, and tagged with an ETag of that version.
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
      const res = await app.stats.statsResponse(app.reads, request.body, encoding, ifNoneMatch);
      reply.header('etag', res.etag).header('vary', 'accept-encoding');
      if (res.body === null) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      if (res.encoding) return reply.header('content-encoding', res.encoding).send(res.body);
      // uncompressed: the chunks as they lie (views of the kept fragments), not joined into one copy
      return reply.header('content-length', res.body.length).send(Readable.from(res.body.chunks));
    },
  );
  app.post(
    '/project/offer-prices',
    {
      config: { cache: true },
      schema: {
        description:
          'Средняя цена м² по условиям оплаты (100 % оплата, ипотека…) по дням снимков (§11.4); пусто, если их нет.',
        body: statsRequestSchema,
        response: { 200: offerSeriesResponseSchema },
      },
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return offerSeries(app.reads, request.body);
    },
  );
};
