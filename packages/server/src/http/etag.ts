import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Read endpoints marked `config.etag` answer with an ETag of the data version and the URL, and 304 to a
 * matching If-None-Match before doing any work.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.config?.etag) return;
    const version = await app.dataVersion.get();
    const url = createHash('sha1').update(request.url).digest('base64url').slice(0, 16);
    const tag = `W/"d${version}-${url}"`;
    reply.header('etag', tag).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === tag) {
      reply.code(304).send();
      return reply;
    }
  });
}
