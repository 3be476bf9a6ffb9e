import {
  alertsQuerySchema,
  alertsReadResponseSchema,
  alertsReadSchema,
  alertsResponseSchema,
  telegramLinkSchema,
  watchesResponseSchema,
  watchParamsSchema,
  watchRequestSchema,
  watchSchema,
  watchUpdateSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addWatch,
  listAlerts,
  listWatches,
  markAlertsRead,
  newLinkCode,
  removeWatch,
  telegramLinked,
  unlinkTelegram,
  updateWatch,
} from '../../use-cases/watch.js';

/** Watchlists, their alerts and the Telegram link of the signed-in user (issue 17). */
export const watchRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.db;

  app.get('/watches', { schema: { response: { 200: watchesResponseSchema } } }, async (request) =>
    listWatches(db, request.user!.id),
  );

  app.post(
    '/watches',
    { schema: { body: watchRequestSchema, response: { 201: watchSchema } } },
    async (request, reply) => reply.status(201).send(await addWatch(db, request.user!.id, request.body)),
  );

  app.patch(
    '/watches/:id',
    { schema: { params: watchParamsSchema, body: watchUpdateSchema, response: { 200: watchSchema } } },
    async (request) => updateWatch(db, request.user!.id, request.params.id, request.body.rules),
  );

  app.delete('/watches/:id', { schema: { params: watchParamsSchema } }, async (request, reply) => {
    await removeWatch(db, request.user!.id, request.params.id);
    return reply.status(204).send();
  });

  app.get(
    '/alerts',
    { schema: { querystring: alertsQuerySchema, response: { 200: alertsResponseSchema } } },
    async (request) =>
      listAlerts(db, request.user!.id, { unread: request.query.unread === '1', limit: request.query.limit }),
  );

  app.post(
    '/alerts/read',
    { schema: { body: alertsReadSchema, response: { 200: alertsReadResponseSchema } } },
    async (request) => ({ unread: await markAlertsRead(db, request.user!.id, request.body.ids) }),
  );

  app.get('/profile/telegram', { schema: { response: { 200: telegramLinkSchema } } }, async (request) => ({
    linked: await telegramLinked(db, request.user!.id),
    code: null,
    expiresAt: null,
    botUsername: app.deps.config.telegramBotUsername ?? null,
  }));

  app.post('/profile/telegram', { schema: { response: { 200: telegramLinkSchema } } }, async (request) => {
    const { code, expiresAt } = await newLinkCode(db, request.user!.id);
    return {
      linked: await telegramLinked(db, request.user!.id),
      code,
      expiresAt,
      botUsername: app.deps.config.telegramBotUsername ?? null,
    };
  });

  app.delete('/profile/telegram', async (request, reply) => {
    await unlinkTelegram(db, request.user!.id);
    return reply.status(204).send();
  });
};
