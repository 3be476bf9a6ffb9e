import { Readable } from 'node:stream';
import {
  offerSeriesResponseSchema,
  type StatsRequest,
  statsColumnsSchema,
  statsRequestSchema,
  statsResponseSchema,
} from '@cena-metra/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptedEncoding } from '../../read/encoding.js';
import { offerSeries } from '../../read/offer-reader.js';
import type { StatsForm } from '../../read/stats-reader.js';
import { checkSeriesRange } from '../range.js';

export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The response is large (a point per day per group): it is written as JSON bytes from each snapshot's
  // fragments, kept by the import (derive/series.ts, read/stats-json.ts), recent bodies (and their
  // gzip/brotli forms) are kept per data version, and tagged with an ETag of that version.
  const send = async (
    form: StatsForm,
    body: StatsRequest,
    headers: FastifyRequest['headers'],
    reply: FastifyReply,
  ) => {
    checkSeriesRange(body.from, body.to);
    const encoding = acceptedEncoding(headers['accept-encoding']);
    const res = await app.stats.statsResponse(app.reads, body, encoding, headers['if-none-match'], form);
    reply.header('etag', res.etag).header('vary', 'accept-encoding');
    if (res.body === null) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    if (res.encoding) return reply.header('content-encoding', res.encoding).send(res.body);
    // uncompressed: the chunks as they lie (views of the kept fragments), not joined into one copy
    return reply.header('content-length', res.body.length).send(Readable.from(res.body.chunks));
  };
  // the schemas document the responses (OpenAPI); the bodies are sent as prepared bytes, not re-serialised
  // (prepared bytes and 304s are outside the typed reply)
  app.post(
    '/project/stats',
    { schema: { body: statsRequestSchema, response: { 200: statsResponseSchema } } },
    (request, reply) => send('points', request.body, request.headers, reply as unknown as FastifyReply),
  );
  app.post(
    '/project/stats/columns',
    {
      schema: {
        description:
          'То же, что /project/stats, столбцами (§12.2): даты один раз, каждая цена и каждый ключ — массив по датам (null — нет данных в этот день).',
        body: statsRequestSchema,
        response: { 200: statsColumnsSchema },
      },
    },
    (request, reply) => send('columns', request.body, request.headers, reply as unknown as FastifyReply),
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
