import {
  sourceInputSchema,
  sourceParamsSchema,
  sourcePatchSchema,
  sourceRunSchema,
  sourceRunsResponseSchema,
  sourceSchema,
  sourcesResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../auth/actor.js';
import { nextCollect } from '../../collect/schedule.js';
import { runById, sourceRuns, sourceView, sourceViews } from '../../collect/views.js';
import { todayIn } from '../../lib/days.js';
import { collectSources } from '../../use-cases/collect.js';
import { changeSource, createSource, deleteSource, getSource } from '../../use-cases/sources.js';

/**
 * Sources collected by schedule (DESIGN §10.8): list, add, change, remove, run now, their runs. Admins
 * only (auth/access.ts); every change and run is audited.
 */
export const sourceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const next = () => nextCollect(config.collectAt, config.collectTz);
  app.get('/sources', { schema: { response: { 200: sourcesResponseSchema } } }, async () =>
    sourceViews(db, next()),
  );
  app.post(
    '/sources',
    { schema: { body: sourceInputSchema, response: { 201: sourceSchema } } },
    async (request, reply) => {
      const s = await createSource(db, request.body, actorOf(request));
      return reply.code(201).send(await sourceView(db, s.id, next()));
    },
  );
  app.patch(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, body: sourcePatchSchema, response: { 200: sourceSchema } } },
    async (request) => {
      await changeSource(db, request.params.id, request.body, actorOf(request));
      return sourceView(db, request.params.id, next());
    },
  );
  app.delete(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteSource(db, request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/sources/:id/run',
    {
      schema: {
        description: 'Собрать источник сейчас (за сегодняшний день в COLLECT_TZ).',
        params: sourceParamsSchema,
        response: { 200: sourceRunSchema },
      },
    },
    async (request) => {
      const source = await getSource(db, request.params.id);
      const [done] = await collectSources(app.host, [source], todayIn(config.collectTz), actorOf(request));
      return runById(db, done.run);
    },
  );
  app.get(
    '/sources/:id/runs',
    { schema: { params: sourceParamsSchema, response: { 200: sourceRunsResponseSchema } } },
    async (request) => sourceRuns(db, request.params.id),
  );
};
