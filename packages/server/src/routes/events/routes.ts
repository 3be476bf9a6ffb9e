import { Readable } from 'node:stream';
import {
  PRICE_CHANGE_COLUMNS,
  type PriceChange,
  priceChangesQuerySchema,
  priceChangesResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { XLSX_TYPE, xlsxBuffer } from '../../http/xlsx.js';
import { BadRequestError } from '../../lib/errors.js';
import { Semaphore } from '../../lib/semaphore.js';
import {
  getPriceChanges,
  priceChangePages,
  priceChangesCsv,
  withDefaultRange,
} from '../../use-cases/reads.js';

/**
 * Exports read at once per process. Each reads page after page. PGlite runs one query at a time in this
 * very thread: exports side by side gain nothing there and make every other request wait behind more
 * pages, so one at a time; a PostgreSQL server works on two in its own processes (four left a 2-core machine too busy to answer a health check within 100 ms: p99 118 ms).
 */
const CSV_EXPORTS_AT_ONCE = { pglite: 1, postgresql: 2 } as const;
/** How long an export's connection may stay silent (waiting for its turn) before it is closed. */
const EXPORT_SOCKET_TIMEOUT_MS = 10 * 60 * 1000;
/** An Excel file is built whole in memory: past this many rows the filter is to be narrowed (or CSV taken). */
export const XLSX_MAX_ROWS = 100_000;

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const exports = new Semaphore(CSV_EXPORTS_AT_ONCE[app.reads.kind]);
  app.get(
    '/price-changes',
    {
      config: { etag: true },
      schema: { querystring: priceChangesQuerySchema, response: { 200: priceChangesResponseSchema } },
    },
    async (request) =>
      getPriceChanges(
        app.reads,
        await withDefaultRange(app.reads, request.query),
        app.deps.config.maxCarryDays,
      ),
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
      const query = await withDefaultRange(app.reads, request.query);
      // the request is whole: waiting for a slot, or between pages, is our silence, not an idle client's
      request.raw.socket?.setTimeout?.(EXPORT_SOCKET_TIMEOUT_MS);
      const release = await exports.acquire();
      const pages = priceChangesCsv(app.reads, query, app.deps.config.maxCarryDays);
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
  app.get(
    '/price-changes.xlsx',
    {
      config: { etag: true },
      schema: {
        description: `Все события фильтра в Excel (числа — числами, даты — датами; до ${XLSX_MAX_ROWS} строк).`,
        querystring: priceChangesQuerySchema,
      },
    },
    async (request, reply) => {
      const query = await withDefaultRange(app.reads, request.query);
      request.raw.socket?.setTimeout?.(EXPORT_SOCKET_TIMEOUT_MS);
      const release = await exports.acquire();
      try {
        const rows: PriceChange[] = [];
        for await (const page of priceChangePages(app.reads, query, app.deps.config.maxCarryDays)) {
          rows.push(...page);
          if (rows.length > XLSX_MAX_ROWS)
            throw new BadRequestError(
              `в выгрузке больше ${XLSX_MAX_ROWS.toLocaleString('ru-RU')} строк: сузьте фильтр или выгрузите CSV`,
            );
        }
        const body = await xlsxBuffer({ name: 'Изменения цен', columns: PRICE_CHANGE_COLUMNS, rows });
        return reply
          .type(XLSX_TYPE)
          .header(
            'content-disposition',
            `attachment; filename="price-changes-${query.from}-${query.to}.xlsx"`,
          )
          .send(body);
      } finally {
        release();
      }
    },
  );
};
