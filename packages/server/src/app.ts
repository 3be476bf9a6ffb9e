import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { accessOf } from './auth/access.js';
import { bearerAuth } from './auth/guard.js';
import { refusalAudit } from './auth/refusals.js';
import type { Config } from './config.js';
import type { Db } from './db/driver.js';
import { registerDemoFeeds } from './demo/feeds.js';
import type { DataVersionCache } from './http/caches.js';
import { clientErrorHandler, codeOfStatus, RouteTable, registerEdgeChecks } from './http/edge.js';
import { errorHandlers } from './http/errors.js';
import { registerReadCaches } from './http/etag.js';
import { fastifyLogging } from './http/log.js';
import { registerDocs, registerHttpPlugins } from './http/plugins.js';
import { readers } from './http/readers.js';
import { webApp } from './http/web-app.js';
import type { Importer } from './ingest/importer.js';
import { todayIn } from './lib/days.js';
import { auditRoutes } from './routes/audit/routes.js';
import { authRoutes } from './routes/auth/routes.js';
import { catalogRoutes } from './routes/catalog/routes.js';
import { chessRoutes } from './routes/chess/routes.js';
import { demoFeedRoutes } from './routes/demo-feeds/routes.js';
import { discountRoutes } from './routes/discounts/routes.js';
import { eventRoutes } from './routes/events/routes.js';
import { flatRoutes } from './routes/flats/routes.js';
import { healthRoutes } from './routes/health/routes.js';
import { ingestRoutes } from './routes/ingest/routes.js';
import { mapRoutes } from './routes/map/routes.js';
import { tileRoutes } from './routes/map/tiles.js';
import { marketRoutes } from './routes/market/routes.js';
import { paceRoutes } from './routes/pace/routes.js';
import { registryRoutes } from './routes/registry/routes.js';
import { searchRoutes } from './routes/search/routes.js';
import { sourceRoutes } from './routes/sources/routes.js';
import { statsRoutes } from './routes/stats/routes.js';
import { summaryRoutes } from './routes/summaries/routes.js';
import { userRoutes } from './routes/users/routes.js';
import { watchRoutes } from './routes/watch/routes.js';
import { serverHost } from './server-host.js';
import { createServices, type Services } from './services.js';

export interface AppDeps {
  db: Db;
  /** where reads that tolerate replica lag go (a ReadRouter over DATABASE_READ_URL); the primary without */
  reads?: Db;
  config: Config;
  /** the process's logger (http/log.ts); none in tests */
  logger?: Logger | false;
  /** folder of the built web app (packages/web/dist); served with history fallback when given */
  webRoot?: string;
  /** told after every API import that applied snapshots (the Telegram publisher) */
  onImported?: () => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** GET read endpoint answering with an ETag of the data version (and 304), its responses cached */
    etag?: boolean;
    /** POST read endpoint whose responses are cached per data version */
    cache?: boolean;
  }
  interface FastifyInstance {
    deps: AppDeps;
    importer: Importer;
    dataVersion: DataVersionCache;
    /** the database of reads that tolerate replica lag (DESIGN §11.2): stats, pace, market, chess, exports */
    reads: Db;
  }
}

/** The API's areas, each a plugin of its routes under /api (auth/access.ts says who may call each route). */
const API_ROUTES: FastifyPluginAsync[] = [
  healthRoutes,
  authRoutes,
  catalogRoutes,
  statsRoutes,
  paceRoutes,
  marketRoutes,
  chessRoutes,
  registryRoutes,
  discountRoutes,
  flatRoutes,
  eventRoutes,
  searchRoutes,
  summaryRoutes,
  ingestRoutes,
  sourceRoutes,
  watchRoutes,
  userRoutes,
  auditRoutes,
  mapRoutes,
];

/**
 * The Fastify app composed of plugins, one concern each (edge checks, caches, HTTP plugins, errors, the web
 * app, auth, the readers, what follows an import, the routes): tests drive it with app.inject, server.ts
 * listens. It makes no service: the importer, the caches and the readers come from services.ts (DESIGN
 * §12.2). Nothing here runs in the background: the import keeps the derived data (DESIGN §11.1).
 */
type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
/** zod's compilers as Fastify's factories (typed there for Ajv's schemas). */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

export async function buildApp(
  deps: AppDeps,
  services: Services = createServices(deps),
): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    // one short line per request (http/log.ts) rather than Fastify's two
    ...fastifyLogging(deps.logger),
    // 1 MB for every request body; the ingest route alone takes up to 64 MB (DESIGN §5)
    bodyLimit: 1024 * 1024,
    // idle, half-sent and never-finished connections are closed (docs/security.md)
    connectionTimeout: config.httpIdleTimeoutSeconds * 1000,
    requestTimeout: config.httpRequestTimeoutSeconds * 1000,
    keepAliveTimeout: config.httpKeepAliveSeconds * 1000,
    routerOptions: { maxParamLength: 200 },
    // the routes' schemas are zod's (fastify-type-provider-zod) in every context: Fastify's own compilers
    // (Ajv, fast-json-stringify) are then never made — ~150 ms of a start only to load them
    schemaController: { compilersFactory: ZOD_COMPILERS },
    clientErrorHandler,
    // a malformed address or an overlong path parameter, found by the router before any route runs
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      void (reply as unknown as FastifyReply).status(status).send({
        message:
          status === 414
            ? 'адрес запроса: параметр пути слишком длинный'
            : 'адрес запроса: неверная кодировка',
        code: codeOfStatus(status),
      });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.headersTimeout =
    Math.min(config.httpHeadersTimeoutSeconds, config.httpRequestTimeoutSeconds) * 1000;
  // deny by default: a route that the access table does not name cannot be registered (DESIGN §12.1)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (!accessOf(String(method), route.url))
        throw new Error(`маршрут ${method} ${route.url} не назван в таблице доступа (auth/access.ts)`);
  });
  const routes = new RouteTable(app);
  registerEdgeChecks(app);
  // first: its onSend hook keeps responses before compression
  registerReadCaches(app, services.cache);
  await registerHttpPlugins(app, deps.config);
  await registerDocs(app);
  // JSON only (and NDJSON on the ingest route): a text/plain body is a 415, not a string to validate
  app.removeContentTypeParser('text/plain');
  app.decorate('deps', deps);
  app.decorate('importer', services.importer);
  app.decorate('reads', services.reads);
  app.decorate('dataVersion', services.dataVersion);
  await app.register(errorHandlers, { routes, webApp: deps.webRoot !== undefined });
  if (deps.webRoot) await app.register(webApp, { root: deps.webRoot });
  await app.register(bearerAuth, { db: deps.db, config });
  await app.register(refusalAudit, { db: deps.db });
  await app.register(readers, { readers: services.readers });
  await app.register(serverHost, {
    db: deps.db,
    importer: app.importer,
    market: services.readers.market,
    onImported: deps.onImported,
  });
  await app.register(
    async (api) => {
      for (const routes of API_ROUTES) await api.register(routes);
    },
    { prefix: '/api' },
  );
  await app.register(demoFeedRoutes, { prefix: '/demo-feeds' });
  await app.register(tileRoutes, { prefix: '/tiles' });
  // the same lists for the demo's sources, read in-process (`local:`), never over HTTP to this machine
  registerDemoFeeds(() => todayIn(config.collectTz));
  return app;
}
