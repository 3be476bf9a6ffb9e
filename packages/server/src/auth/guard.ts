import { ERROR_CODES, ROLE_LABELS } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Db } from '../db/driver.js';
import { type User, userForToken } from '../db/queries/users.js';
import { SessionCache } from '../http/caches.js';
import { isApiPath } from '../http/paths.js';
import { type Access, accessOf, allows } from './access.js';
import { decodeTokenHeader, type TelegramUser, verifyInitData } from './telegram.js';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    token: string | null;
    /** the Telegram user of a valid `token` header (WebApp initData) */
    telegramUser: TelegramUser | null;
    /** the access of the route the router matched (auth/access.ts); null before the guard or unmatched */
    access: Access | null;
  }
  interface FastifyInstance {
    sessions: SessionCache;
  }
}

/**
 * Who asks and whether they may (DESIGN §5, §11.5, §12.1): a bearer token on every API route but the open
 * ones, the user's role held to the route's access (auth/access.ts, the one table), and a Telegram WebApp
 * identity in the `token` header, valid or refused with a 401.
 *
 * The decision is taken on the route the router matched — its method and declared path — never on the
 * request-target's text: `/%61pi/users`, `http://host/api/users` and `/x/../api/users` run the route of
 * `/api/users` and are judged as it is. A request no route matches goes to the not-found answer, the same
 * for everyone; a matched route without an entry in the table is refused.
 */
export const bearerAuth = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
    app.decorate('sessions', new SessionCache());
    app.decorateRequest('user', null);
    app.decorateRequest('token', null);
    app.decorateRequest('telegramUser', null);
    app.decorateRequest('access', null);
    app.addHook('onRequest', async (request, reply) => {
      const route = request.routeOptions.url;
      // nothing matched: the not-found answer (http/errors.ts), for everyone alike
      if (route === undefined) return;
      const access = accessOf(request.method, route);
      request.access = access ?? null;
      if (!isApiPath(route)) {
        if (access === 'public') return;
        return reply.status(403).send({ message: 'доступ запрещён', code: ERROR_CODES.forbidden });
      }
      // an API answer depends on who asks (or on a link's token): kept by no cache; the open summaries
      // say otherwise (http/etag.ts)
      reply.header('cache-control', 'no-store');
      const messenger = request.headers.token;
      if (typeof messenger === 'string' && messenger) {
        const botToken = opts.config.telegramBotToken;
        const initData = decodeTokenHeader(messenger);
        const checked =
          botToken && initData ? verifyInitData(initData, botToken) : { error: 'не проверяется' };
        if ('error' in checked)
          return reply.status(401).send({
            message: `token: данные Telegram отклонены (${checked.error})`,
            code: ERROR_CODES.unauthorized,
          });
        request.telegramUser = checked.user;
      }
      if (access === 'public') return;
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      let user = match ? app.sessions.get(match[1]) : null;
      if (match && !user) {
        user = await userForToken(opts.db, match[1], {
          address: request.ip,
          userAgent: request.headers['user-agent'],
        });
        if (user) app.sessions.set(match[1], user);
      }
      if (!user) {
        return reply
          .status(401)
          .send({ message: 'требуется вход: токен отсутствует или истёк', code: ERROR_CODES.unauthorized });
      }
      request.user = user;
      request.token = match![1];
      // a route missing from the table is nobody's: refused rather than open
      if (!access || !allows(user.role, access, opts.config.viewersExport)) {
        return reply.status(403).send({
          message:
            access === 'export'
              ? 'нет доступа: выгрузки недоступны наблюдателям'
              : `нет доступа: роль «${ROLE_LABELS[user.role]}» не позволяет это действие`,
          code: ERROR_CODES.forbidden,
        });
      }
    });
  },
  { name: 'bearer-auth' },
);
