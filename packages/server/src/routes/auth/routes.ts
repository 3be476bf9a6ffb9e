import {
  ERROR_CODES,
  loginRequestSchema,
  meSchema,
  passwordChangeSchema,
  sessionSchema,
} from '@cena-metra/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PasswordGuessLimiter } from '../../auth/rate-limit.js';
import { checkCredentials, createSession, revokeSession, setPassword } from '../../auth/users.js';
import { AppError, BadRequestError } from '../../lib/errors.js';

/** A 429 saying how long to wait, with Retry-After. */
function tooManyGuesses(reply: { header: FastifyReply['header'] }, wait: number, what: string): AppError {
  reply.header('retry-after', String(wait));
  return new AppError(
    `слишком много попыток ${what}, повторите через ${Math.ceil(wait / 60)} мин.`,
    ERROR_CODES.tooManyRequests,
    429,
  );
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // login and the current password of a password change are guessed the same way: one count for both
  const guesses = new PasswordGuessLimiter();

  // tokens and who is signed in are never kept by a browser's or a proxy's cache
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.post(
    '/auth/login',
    { config: { public: true }, schema: { body: loginRequestSchema, response: { 200: sessionSchema } } },
    async (request, reply) => {
      const { username, password } = request.body;
      const wait = guesses.wait(request.ip, username);
      if (wait > 0) throw tooManyGuesses(reply, wait, 'входа');
      const user = await checkCredentials(app.deps.db, username, password);
      if (!user) {
        guesses.fail(request.ip, username);
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
    const wait = guesses.wait(request.ip, user.username);
    if (wait > 0) throw tooManyGuesses(reply, wait, 'ввести текущий пароль');
    if (!(await checkCredentials(app.deps.db, user.username, currentPassword))) {
      guesses.fail(request.ip, user.username);
      throw new BadRequestError('currentPassword: неверный текущий пароль');
    }
    await setPassword(app.deps.db, user.username, newPassword, request.token!);
    app.sessions.forgetUser(user.id);
    return reply.status(204).send();
  });

  app.get('/auth/me', { schema: { response: { 200: meSchema } } }, async (request) => ({
    username: request.user!.username,
  }));
};
