import { healthSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReadRouter } from '../../db/replicas.js';
import { getDataState } from './queries.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
    database: app.deps.db.kind,
    ...(await getDataState(app.deps.db)),
    telegramChannelUrl: app.deps.config.telegramChannelUrl ?? null,
    readReplicas: app.reads instanceof ReadRouter ? app.reads.status() : [],
  }));
};
