import {
  deviceSessionsSchema,
  ERROR_CODES,
  inviteAcceptSchema,
  inviteInfoSchema,
  inviteParamsSchema,
  loginRequestSchema,
  meSchema,
  passwordChangeSchema,
  type Role,
  sessionParamsSchema,
  sessionSchema,
} from '@cena-metra/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allows } from '../../auth/access.js';
import { actorOf } from '../../auth/actor.js';
import { PasswordGuessLimiter } from '../../auth/rate-limit.js';
import { AppError, BadRequestError, NotFoundError } from '../../lib/errors.js';
import {
  acceptInvite,
  changePassword,
  checkCredentials,
  createSession,
  deviceSessions,
  endDeviceSession,
  hashToken,
  inviteOf,
  revokeSession,
} from '../../use-cases/users.js';

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
  const canExport = (role: Role) => allows(role, 'export', app.deps.config.viewersExport);

  app.post(
    '/auth/login',
    { schema: { body: loginRequestSchema, response: { 200: sessionSchema } } },
    async (request, reply) => {
      const { username, password } = request.body;
      const wait = guesses.wait(request.ip, username);
      if (wait > 0) throw tooManyGuesses(reply, wait, 'входа');
      const user = await checkCredentials(app.deps.db, username, password);
      // a disabled account answers exactly as a wrong password (DESIGN §12.1): whether the password was
      // right must not be learned from it
      if (!user || user.disabled) {
        guesses.fail(request.ip, username);
        throw new AppError('неверное имя пользователя или пароль', ERROR_CODES.unauthorized, 401);
      }
      const token = await createSession(app.deps.db, user.id, device(request));
      return { username: user.username, role: user.role, token, canExport: canExport(user.role) };
    },
  );

  // a one-time link made by an admin (DESIGN §11.5): whose it is, then the password that spends it
  app.get(
    '/auth/invite/:token',
    { schema: { params: inviteParamsSchema, response: { 200: inviteInfoSchema } } },
    async (request) => {
      const invite = await inviteOf(app.deps.db, request.params.token);
      if (!invite)
        throw new NotFoundError('ссылка недействительна: она неверна, уже использована или устарела');
      return { username: invite.username, expiresAt: invite.expiresAt };
    },
  );
  app.post(
    '/auth/invite/:token',
    { schema: { params: inviteParamsSchema, body: inviteAcceptSchema, response: { 200: sessionSchema } } },
    async (request) => {
      const user = await acceptInvite(app.deps.db, request.params.token, request.body.password, request.ip);
      if (!user)
        throw new NotFoundError('ссылка недействительна: она неверна, уже использована или устарела');
      const token = await createSession(app.deps.db, user.id, device(request));
      return { username: user.username, role: user.role, token, canExport: canExport(user.role) };
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
    await changePassword(app.deps.db, actorOf(request), user.username, newPassword, request.token!);
    app.sessions.forgetUser(user.id);
    return reply.status(204).send();
  });

  app.get('/auth/me', { schema: { response: { 200: meSchema } } }, async (request) => ({
    username: request.user!.username,
    role: request.user!.role,
    canExport: canExport(request.user!.role),
  }));

  // the devices signed in as this user, and ending one of them
  app.get('/auth/sessions', { schema: { response: { 200: deviceSessionsSchema } } }, async (request) =>
    deviceSessions(app.deps.db, request.user!.id, hashToken(request.token!)),
  );
  app.delete(
    '/auth/sessions/:id',
    { schema: { params: sessionParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      if (!(await endDeviceSession(app.deps.db, request.user!.id, request.params.id)))
        throw new NotFoundError(`сеанс ${request.params.id} не найден`);
      app.sessions.forgetUser(request.user!.id);
      return reply.status(204).send(null);
    },
  );
};

/** What a session keeps of the device that opened it. */
const device = (request: FastifyRequest) => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
});
