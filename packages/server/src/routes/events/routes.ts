import { Readable } from 'node:stream';
import { priceChangesQuerySchema, priceChangesResponseSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Semaphore } from '../../lib/semaphore.js';
import { getPriceChanges, priceChangesCsv, withDefaultRange } from './queries.js';

/**
 * Exports read at once per process. Each reads page after page; on PGlite every query waits its turn on
 * the one connection, so a few exports at a time keep a health check or a page within ~100 ms.
 */
const CSV_EXPORTS_AT_ONCE = 2;

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const exports = new Semaphore(CSV_EXPORTS_AT_ONCE);
  app.get(
    '/price-changes',
    {
      config: { etag: true },
      schema: { querystring: priceChangesQuerySchema, response: { 200: priceChangesResponseSchema } },
    },
    async (request) => getPriceChanges(app.deps.db, await withDefaultRange(app.deps.db, request.query)),
  );
  app.get(
    '/price-changes.csv',
    {
      config: { etag: true },
      schema: {
        description: 'Все события фильтра в CSV для Excel (потоком, без ограничения числа строк).',
        querystring: priceChangesQuerySchema,
      },
    },
    async (request, reply) => {
      const query = await withDefaultRange(app.deps.db, request.query);
      const release = await exports.acquire();
      const pages = priceChangesCsv(app.deps.db, query);
      let first: IteratorResult<string>;
      try {
        // the first page is read before the headers go out: a bad filter is still a clean 400
        first = await pages.next();
      } catch (error) {
        release();
        throw error;
      }
      async function* all() {
        try {
          if (!first.done) yield first.value;
          yield* pages;
        } finally {
          release();
        }
      }
      const stream = Readable.from(all());
      // a client gone mid-way ends the generator, which frees the slot
      stream.on('close', release);
      const name = `price-changes-${query.from}-${query.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(stream);
    },
  );
};
