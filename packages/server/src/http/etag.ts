import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding } from '../read/encoding.js';
import type { ReadCache } from '../read/read-cache.js';
import { type CachedResponse, ResponseCache } from './caches.js';

const cached = (request: FastifyRequest) =>
  (request.method === 'GET' && request.routeOptions.config?.etag) || request.routeOptions.config?.cache;

/**
 * Read endpoints marked `config.etag` (GET) answer with an ETag of the data version and the URL, and 304
 * to a matching If-None-Match before doing any work. They and the POST reads marked `config.cache` are
 * answered from a cache of serialized responses per data version.
 *
 * Its onSend hook must run before compression: call this before the HTTP plugins are registered.
 */
export function registerReadCaches(app: FastifyInstance, cache: ReadCache): void {
  const responses = new ResponseCache(cache);
  // a response being computed: requests for the same key meanwhile wait for it instead of computing it
  // again (after an import every cached read misses at once)
  const pending = new Map<string, Promise<CachedResponse | undefined>>();
  const keys = new WeakMap<
    FastifyRequest,
    { version: string; key: string; done: (entry: CachedResponse | undefined) => void }
  >();

  const send = (request: FastifyRequest, reply: FastifyReply, hit: CachedResponse) => {
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    const body = responses.encoded(hit, encoding);
    reply.header('content-type', hit.type).header('vary', 'accept-encoding');
    // already compressed: @fastify/compress leaves a body with a content-encoding alone
    if (body !== hit.body) reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  app.addHook('preHandler', async (request, reply) => {
    if (!cached(request)) return;
    const version = await app.dataVersion.get();
    if (request.method === 'GET') {
      const url = createHash('sha1').update(request.url).digest('base64url').slice(0, 16);
      const tag = `W/"d${version}-${url}"`;
      // the open summaries may be kept and revalidated; a signed-in read is kept nowhere (DESIGN §12.1)
      reply
        .header('etag', tag)
        .header('cache-control', request.access === 'public' ? 'no-cache' : 'no-store');
      if (request.headers['if-none-match'] === tag) {
        reply.code(304).send();
        return reply;
      }
    }
    const key = `${version} ${request.method} ${request.url} ${request.method === 'GET' ? '' : JSON.stringify(request.body)}`;
    let hit = responses.get(version, key);
    if (!hit && pending.has(key)) hit = await pending.get(key);
    if (hit) {
      send(request, reply, hit);
      return reply;
    }
    let done: (entry: CachedResponse | undefined) => void = () => {};
    pending.set(key, new Promise((resolve) => (done = resolve)));
    keys.set(request, { version, key, done });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = keys.get(request);
    // a string, or the bytes a route's own serializer wrote (the market's ranking)
    if (entry && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const type = String(reply.getHeader('content-type') ?? 'application/json');
      responses.set(entry.version, entry.key, payload, type);
      entry.done(responses.get(entry.version, entry.key));
    }
    return payload;
  });

  // an error, a response not kept, or the client gone: the waiting requests compute it themselves
  const release = async (request: FastifyRequest) => {
    const entry = keys.get(request);
    if (!entry) return;
    entry.done(undefined);
    pending.delete(entry.key);
    keys.delete(request);
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}
