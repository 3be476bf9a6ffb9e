import {
  ERROR_CODES,
  loginRequestSchema,
  meSchema,
  passwordChangeSchema,
  sessionSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiter } from '../../auth/rate-limit.js';
import { checkCredentials, createSession, revokeSession, setPassword } from '../../auth/users.js';
import { AppError, BadRequestError } from '../../lib/errors.js';

const LOGIN_LIMIT = 10;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const byIp = new RateLimiter(LOGIN_LIMIT, LOGIN_WINDOW_MS);
  const byName = new RateLimiter(LOGIN_LIMIT, LOGIN_WINDOW_MS);

  app.post(
    '/auth/login',
    { config: { public: true }, schema: { body: loginRequestSchema, response: { 200: sessionSchema } } },
    async (request, reply) => {
      const { username, password } = request.body;
      const name = username.toLowerCase();
      const wait = Math.max(byIp.wait(request.ip), byName.wait(name));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new AppError(
          `слишком много попыток входа, повторите через ${Math.ceil(wait / 60)} мин.`,
          ERROR_CODES.tooManyRequests,
          429,
        );
      }
      const user = await checkCredentials(app.deps.db, username, password);
      if (!user) {
        byIp.fail(request.ip);
        byName.fail(name);
        throw new AppError('неверное имя пользователя или пароль', ERROR_CODES.unauthorized, 401);
      }
      return { username: user.username, token: await createSession(app.deps.db, user.id) };
    },
  );

  app.post('/auth/logout', async (request, reply) => {
    await revokeSession(app.deps.db, request.token!);
    app.sessions.forgetUser(request.user!.id);
    return reply.status(204).send();
  });

  app.post('/auth/password', { schema: { body: passwordChangeSchema } }, async (request, reply) => {
    const { currentPassword, newPassword } = request.body;
    const user = request.user!;
    if (!(await checkCredentials(app.deps.db, user.username, currentPassword)))
      throw new BadRequestError('currentPassword: неверный текущий пароль');
    await setPassword(app.deps.db, user.username, newPassword, request.token!);
    app.sessions.forgetUser(user.id);
    return reply.status(204).send();
  });

  app.get('/auth/me', { schema: { response: { 200: meSchema } } }, async (request) => ({
    username: request.user!.username,
  }));
};
