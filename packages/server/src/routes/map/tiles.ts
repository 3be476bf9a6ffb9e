import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import parseRange from 'range-parser';
import { AppError, BadRequestError, NotFoundError } from '../../lib/errors.js';

/** Where the basemap archive (MAP_PMTILES) is served: one file under one name, no path taken from a request. */
export const BASEMAP_URL = '/tiles/basemap.pmtiles';

/**
 * The operator's PMTiles basemap (issue 46), read by the map's pmtiles client with range requests: a byte
 * range answered 206 with its Content-Range, the whole file 200, a range beyond it 416. Public like the web
 * app's own files (the basemap is map data, not the product's); nothing else of the disk is reachable here.
 */
export const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/basemap.pmtiles', { schema: { hide: true } }, async (request, reply) => {
    const file = app.deps.config.mapPmtiles;
    if (!file) throw new NotFoundError('карта-подложка не настроена (MAP_PMTILES)');
    const { size, mtimeMs } = await stat(file);
    reply.header('accept-ranges', 'bytes');
    const asked = request.headers.range;
    const ranges = asked === undefined ? null : parseRange(size, asked, { combine: true });
    if (ranges === -1) {
      reply.header('content-range', `bytes */${size}`);
      throw new AppError(`range: за пределами файла (${size} байт)`, 'VALIDATION_ERROR', 416);
    }
    if (ranges === -2 || (ranges && (ranges.type !== 'bytes' || ranges.length !== 1)))
      throw new BadRequestError('range: ожидается один диапазон bytes=начало-конец');
    reply
      .type('application/vnd.pmtiles')
      .header('etag', `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`)
      .header('cache-control', 'public, max-age=3600');
    if (ranges === null) return reply.header('content-length', size).send(createReadStream(file));
    const [{ start, end }] = ranges;
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(file, { start, end }));
  });
};
