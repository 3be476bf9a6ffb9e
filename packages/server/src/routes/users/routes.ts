import {
  userCreatedSchema,
  userCreateSchema,
  userParamsSchema,
  userPatchSchema,
  userSchema,
  usersResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../auth/actor.js';
import { changeUser, createUser, endUserSessions, listUsers, reissueInvite } from '../../use-cases/users.js';

/** «Пользователи» (DESIGN §11.5), admins only (auth/access.ts): list, create, change, end sessions. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get('/users', { schema: { response: { 200: usersResponseSchema } } }, async () => listUsers(db));
  app.post(
    '/users',
    {
      schema: {
        description:
          'Новый пользователь: с паролем или (без пароля) с одноразовой ссылкой на 24 часа — её токен показывается один раз.',
        body: userCreateSchema,
        response: { 201: userCreatedSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createUser(db, actorOf(request), request.body)),
  );
  app.patch(
    '/users/:id',
    {
      schema: {
        description:
          'Роль и отключение; у отключённого сеансы завершаются сразу. Последнего администратора не снять.',
        params: userParamsSchema,
        body: userPatchSchema,
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const user = await changeUser(db, actorOf(request), request.params.id, request.body);
      app.sessions.forgetUser(user.id);
      return user;
    },
  );
  app.post(
    '/users/:id/invite',
    {
      schema: {
        description: 'Новая одноразовая ссылка для входа на 24 часа (прежняя перестаёт действовать).',
        params: userParamsSchema,
        response: { 200: userCreatedSchema },
      },
    },
    async (request) => reissueInvite(db, actorOf(request), request.params.id),
  );
  app.delete(
    '/users/:id/sessions',
    { schema: { params: userParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await endUserSessions(db, actorOf(request), request.params.id);
      app.sessions.forgetUser(request.params.id);
      return reply.code(204).send(null);
    },
  );
};
