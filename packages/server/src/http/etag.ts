import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/driver.js';

/** A version of everything the read endpoints show: it changes with every import (project data_version). */
export async function dataVersion(db: Db): Promise<string> {
  const [row] = await db.query<{ n: number; v: number }>(
    'select count(*)::int as n, coalesce(sum(data_version), 0)::bigint as v from project',
  );
  return `${row.n}.${row.v}`;
}

/**
 * Read endpoints marked `config.etag` answer with an ETag of the data version and the URL, and 304 to a
 * matching If-None-Match before doing any work.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.config?.etag) return;
    const version = await dataVersion(app.deps.db);
    const url = createHash('sha1').update(request.url).digest('base64url').slice(0, 16);
    const tag = `W/"d${version}-${url}"`;
    reply.header('etag', tag).header('cache-control', 'private, no-cache');
    if (request.headers['if-none-match'] === tag) {
      reply.code(304).send();
      return reply;
    }
  });
}
