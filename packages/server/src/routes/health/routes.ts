import { healthSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReadRouter } from '../../db/replicas.js';
import { PerVersion } from '../../http/caches.js';
import { getDataState } from '../../use-cases/reads.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // a probe asks every second or more often: the data state is read once per data version and at most a
  // second old, so health does not queue behind long reads on the embedded database (ten exports at once)
  const state = new PerVersion<Awaited<ReturnType<typeof getDataState>>>(1_000);
  app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
    database: app.deps.db.kind,
    ...(await state.get(await app.dataVersion.get(), () => getDataState(app.deps.db))),
    telegramChannelUrl: app.deps.config.telegramChannelUrl ?? null,
    readReplicas: app.reads instanceof ReadRouter ? app.reads.status() : [],
  }));
};
