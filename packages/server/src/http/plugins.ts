import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import { REQUEST_BROTLI_QUALITY, REQUEST_GZIP_LEVEL } from '../read/encoding.js';
import { DOCS_PREFIX } from './paths.js';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Security headers with a CSP of self (the web app has no inline script; images may be data:/blob: for
 * chart downloads, or https: for the developers' flat plans), CORS only for the origins in CORS_ORIGINS, gzip/brotli for bodies over 1 KB.
 */
export async function registerHttpPlugins(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // https: a flat's plan is the developer's picture on its CDN (DESIGN §11.4), shown without a referrer
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        // an operator's map style (MAP_STYLE_URL) is read from its origin; nothing else leaves this one
        connectSrc: ["'self'", ...(config.mapStyleUrl ? [new URL(config.mapStyleUrl).origin] : [])],
        // the map's workers (MapLibre starts them from blob: URLs)
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // the app is served from one origin; cross-origin isolation would only get in the way of downloads
    crossOriginEmbedderPolicy: false,
  });
  const origins = (config.corsOrigins ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  // off unless configured (DESIGN §5, a deviation from the old client's permissive CORS)
  if (origins.length) await app.register(fastifyCors, { origin: origins, credentials: true });
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: REQUEST_BROTLI_QUALITY } },
    zlibOptions: { level: REQUEST_GZIP_LEVEL },
  });
}

/** OpenAPI generated from the zod schemas at /api/openapi.json, and Swagger UI served locally at /api/docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Цена метра API',
        description:
          'Аналитика цен новостроек. Авторизация: заголовок Authorization: Bearer <token> (POST /api/auth/login).',
        version: '0.1.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
