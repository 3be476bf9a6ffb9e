import { ERROR_CODES } from '@cena-metra/contract';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { decodeTokenHeader, type TelegramUser, verifyInitData } from './auth/telegram.js';
import { type User, userForToken } from './auth/users.js';
import type { Config } from './config.js';
import type { Db } from './db/driver.js';
import { DataVersionCache, SessionCache } from './http/caches.js';
import { clientErrorHandler, codeOfStatus, RouteTable, registerEdgeChecks } from './http/edge.js';
import { registerReadCaches } from './http/etag.js';
import { IdleWork } from './http/idle-work.js';
import { DOCS_PREFIX, registerDocs, registerHttpPlugins } from './http/plugins.js';
import { Importer } from './ingest/importer.js';
import { AppError, DISK_FULL_MESSAGE, isDatabaseUnavailable, isDiskFull } from './lib/errors.js';
import { MarketReader } from './read/market-reader.js';
import { PaceReader } from './read/pace-reader.js';
import { StatsReader } from './read/stats-reader.js';
import { authRoutes } from './routes/auth/routes.js';
import { catalogRoutes } from './routes/catalog/routes.js';
import { chessRoutes } from './routes/chess/routes.js';
import { demoFeedRoutes } from './routes/demo-feeds/routes.js';
import { discountRoutes } from './routes/discounts/routes.js';
import { eventRoutes } from './routes/events/routes.js';
import { flatRoutes } from './routes/flats/routes.js';
import { healthRoutes } from './routes/health/routes.js';
import { ingestRoutes } from './routes/ingest/routes.js';
import { marketRoutes } from './routes/market/routes.js';
import { paceRoutes } from './routes/pace/routes.js';
import { searchRoutes } from './routes/search/routes.js';
import { sourceRoutes } from './routes/sources/routes.js';
import { statsRoutes } from './routes/stats/routes.js';
import { summaryRoutes } from './routes/summaries/routes.js';
import { watchRoutes } from './routes/watch/routes.js';
import { computeAlerts } from './watch/alerts.js';

export interface AppDeps {
  db: Db;
  config: Config;
  logger?: boolean | object;
  /** folder of the built web app (packages/web/dist); served with history fallback when given */
  webRoot?: string;
  /** told after every API import that applied snapshots (the Telegram publisher) */
  onImported?: () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    token: string | null;
    /** the Telegram user of a valid `token` header (WebApp initData) */
    telegramUser: TelegramUser | null;
  }
  interface FastifyContextConfig {
    /** open endpoint: no bearer token needed */
    public?: boolean;
    /** GET read endpoint answering with an ETag of the data version (and 304), its responses cached */
    etag?: boolean;
    /** POST read endpoint whose responses are cached per data version */
    cache?: boolean;
  }
  interface FastifyInstance {
    deps: AppDeps;
    stats: StatsReader;
    pace: PaceReader;
    market: MarketReader;
    /** after an import or a collection applied snapshots: the pace summaries refreshed, the publisher told */
    afterImport: () => void;
    /** the watchlists' alerts of the events not yet read (after imports and at start) */
    computeAlerts: () => Promise<void>;
    /** what a user is likely to ask for next, answered ahead while the server is idle */
    idleWork: IdleWork;
    /** derives the stale pace summaries in the background, between requests */
    refreshSummaries: () => Promise<unknown>;
    importer: Importer;
    sessions: SessionCache;
    dataVersion: DataVersionCache;
  }
}

/** How long without a request before background work goes on. */
const IDLE_MS = 1_500;
/** … and before a guess at the next request is answered ahead (IdleWork): short, a user may click soon. */
const WARM_IDLE_MS = 300;

const FIELD_NAMES: Record<string, string> = {
  body: 'тело запроса',
  querystring: 'параметры запроса',
  params: 'путь',
};

function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .slice(0, 5)
      .map((v) => {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const field = path || FIELD_NAMES[error.validationContext ?? ''] || 'запрос';
        const message = v.message?.replace(/^[A-Za-z]+: /, '') ?? 'неверное значение';
        return message.startsWith(`${field}:`) ? message : `${field}: ${message}`;
      })
      .join('; ');
  }
  return error.message;
}

/** Fastify's and its plugins' English 4xx texts in our words (the status says what happened). */
function clientMessage(error: FastifyError, status: number): string {
  if (status === 403) return 'доступ запрещён';
  if (status === 404) return 'не найдено';
  if (/^[ -~]*$/.test(error.message)) return `некорректный запрос (${error.message.slice(0, 200)})`;
  return error.message;
}

function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** The Fastify app as a plugin-composed instance: tests drive it with app.inject, server.ts listens. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // 1 MB for every request body; the ingest route alone takes up to 64 MB (DESIGN §5)
    bodyLimit: 1024 * 1024,
    // idle, half-sent and never-finished connections are closed (docs/security.md)
    connectionTimeout: config.httpIdleTimeoutSeconds * 1000,
    requestTimeout: config.httpRequestTimeoutSeconds * 1000,
    keepAliveTimeout: config.httpKeepAliveSeconds * 1000,
    routerOptions: { maxParamLength: 200 },
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
  const routeTable = new RouteTable(app);
  registerEdgeChecks(app);
  // first: its onSend hook keeps responses before compression
  registerReadCaches(app);
  await registerHttpPlugins(app, deps.config);
  await registerDocs(app);
  // JSON only (and NDJSON on the ingest route): a text/plain body is a 415, not a string to validate
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  app.decorate('stats', new StatsReader({ carry: deps.config.maxCarryDays }));
  const market = new MarketReader(deps.config.maxCarryDays);
  app.decorate('pace', new PaceReader(deps.config.maxCarryDays, market));
  app.decorate('market', market);
  // the pace summaries are derived in the background, between requests: a derivation waits until no
  // request has come for a moment, so that it never stands in a user's way (PGlite runs one query at a time)
  // nothing before the app is ready (a start, the demo's first, is not held up by it)
  let lastRequest = Date.now();
  let ready = false;
  let closing = false;
  app.addHook('onReady', async () => {
    ready = true;
  });
  // idle: no request in flight and none for a moment (a long import is not idle while it runs)
  const inFlight = new Set<unknown>();
  const ended = async (request: { id: string }) => {
    inFlight.delete(request.id);
    lastRequest = Date.now();
  };
  app.addHook('onRequest', async (request) => {
    lastRequest = Date.now();
    inFlight.add(request.id);
  });
  app.addHook('onResponse', ended);
  app.addHook('onRequestAbort', ended);
  const idleFor = (ms: number) => async () => {
    while (!closing && (!ready || inFlight.size > 0 || Date.now() - lastRequest < ms))
      await new Promise((resolve) => setTimeout(resolve, ms / 4));
  };
  const idle = idleFor(IDLE_MS);
  app.decorate(
    'idleWork',
    new IdleWork(idleFor(WARM_IDLE_MS), (error, key) =>
      app.log.warn({ err: error, key }, 'работа впрок не удалась'),
    ),
  );
  app.decorate('refreshSummaries', () =>
    app.market
      .refresh(deps.db, idle)
      .catch((error: unknown) => app.log.warn({ err: error }, 'сводки темпа продаж не обновлены')),
  );
  // the watchlists' alerts (issue 17), one computation at a time across processes; Telegram is told after
  let alerting: Promise<void> = Promise.resolve();
  app.decorate('computeAlerts', () => {
    const run = deps.db
      .withLock('watch-alerts', () => computeAlerts(deps.db))
      .then(
        (report) => {
          if (report.alerts) app.log.info(report, 'уведомления об избранном');
        },
        (error: unknown) => app.log.warn({ err: error }, 'уведомления об избранном не посчитаны'),
      );
    alerting = alerting.then(() => run);
    return run;
  });
  app.decorate('afterImport', () => {
    void app.refreshSummaries();
    void app.computeAlerts().then(() => deps.onImported?.());
  });
  // a refresh under way finishes before the database closes
  app.addHook('onClose', async () => {
    closing = true;
    await app.idleWork.stop();
    app.market.stop();
    await app.market.idle();
    await alerting;
  });
  app.decorate('importer', new Importer(deps.db, deps.config.removalGrace, deps.config.maxCarryDays));
  app.decorate('sessions', new SessionCache());
  app.decorate('dataVersion', new DataVersionCache(deps.db));
  app.decorateRequest('user', null);
  app.decorateRequest('token', null);
  app.decorateRequest('telegramUser', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, code: error.code });
    }
    if (error.validation) {
      return reply.status(400).send({ message: validationMessage(error), code: ERROR_CODES.validation });
    }
    const status = error.statusCode ?? 500;
    if (status === 413)
      return reply
        .status(413)
        .send({ message: 'тело запроса слишком велико', code: ERROR_CODES.payloadTooLarge });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.status(415).send({
        message: 'неподдерживаемый Content-Type: ожидается application/json',
        code: ERROR_CODES.unsupportedMediaType,
      });
    if (
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (status === 400 && error instanceof SyntaxError)
    )
      return reply
        .status(400)
        .send({ message: 'тело запроса: некорректный JSON', code: ERROR_CODES.badRequest });
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: clientMessage(error, status), code: codeOfStatus(status) });
    }
    if (isDiskFull(error)) {
      request.log.error({ err: error }, 'нет места на диске');
      return reply.status(507).send({ message: DISK_FULL_MESSAGE, code: ERROR_CODES.unavailable });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'база данных недоступна');
      return reply.status(503).header('retry-after', '5').send({
        message: 'база данных недоступна, повторите запрос через несколько секунд',
        code: ERROR_CODES.unavailable,
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'внутренняя ошибка сервера', code: ERROR_CODES.internal });
  });
  app.setNotFoundHandler((request, reply) => {
    // history fallback: any non-API page address gets the app, which routes it in the browser
    if (
      deps.webRoot &&
      request.method === 'GET' &&
      !isApiUrl(request.url) &&
      !request.url.startsWith('/assets/')
    )
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const allowed = routeTable.allowedMethods(request);
    if (allowed.length && !allowed.includes(request.method))
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({
          message: `метод ${request.method} не поддерживается для ${request.url.split('?')[0]}: допустимо ${allowed.join(', ')}`,
          code: ERROR_CODES.methodNotAllowed,
        });
    return reply.status(404).send({
      message: `не найдено: ${request.method} ${request.url.split('?')[0]}`,
      code: ERROR_CODES.notFound,
    });
  });
  if (deps.webRoot) {
    await app.register(fastifyStatic, {
      root: deps.webRoot,
      wildcard: false,
      index: false,
      // hashed bundles never change; index.html is revalidated
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  // bearer auth on every route except the ones marked public
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiUrl(request.url)) return;
    const messenger = request.headers.token;
    if (typeof messenger === 'string' && messenger) {
      // a Telegram WebApp identity: valid, or the request is refused (DESIGN §5)
      const botToken = deps.config.telegramBotToken;
      const initData = decodeTokenHeader(messenger);
      const checked = botToken && initData ? verifyInitData(initData, botToken) : { error: 'не проверяется' };
      if ('error' in checked)
        return reply.status(401).send({
          message: `token: данные Telegram отклонены (${checked.error})`,
          code: ERROR_CODES.unauthorized,
        });
      request.telegramUser = checked.user;
    }
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    if (request.url.startsWith(DOCS_PREFIX)) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    let user = match ? app.sessions.get(match[1]) : null;
    if (match && !user) {
      user = await userForToken(deps.db, match[1]);
      if (user) app.sessions.set(match[1], user);
    }
    if (!user) {
      return reply
        .status(401)
        .send({ message: 'требуется вход: токен отсутствует или истёк', code: ERROR_CODES.unauthorized });
    }
    request.user = user;
    request.token = match![1];
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(catalogRoutes);
      await api.register(statsRoutes);
      await api.register(paceRoutes);
      await api.register(marketRoutes);
      await api.register(chessRoutes);
      await api.register(discountRoutes);
      await api.register(flatRoutes);
      await api.register(eventRoutes);
      await api.register(searchRoutes);
      await api.register(summaryRoutes);
      await api.register(ingestRoutes);
      await api.register(sourceRoutes);
      await api.register(watchRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(demoFeedRoutes, { prefix: '/demo-feeds' });
  return app;
}
