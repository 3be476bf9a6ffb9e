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
import { collectSource } from '../../collect/collector.js';
import { nextCollect } from '../../collect/schedule.js';
import { addSource, getSource, removeSource, updateSource } from '../../collect/sources.js';
import { todayIn } from '../../lib/days.js';
import { runById, sourceRuns, sourceView, sourceViews } from './queries.js';

/** Sources collected by schedule (DESIGN §10.8): list, add, change, remove, run now, their runs. */
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
      const s = await addSource(db, request.body);
      return reply.code(201).send(await sourceView(db, s.id, next()));
    },
  );
  app.patch(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, body: sourcePatchSchema, response: { 200: sourceSchema } } },
    async (request) => {
      await updateSource(db, request.params.id, request.body);
      return sourceView(db, request.params.id, next());
    },
  );
  app.delete(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await removeSource(db, request.params.id);
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
      try {
        const result = await collectSource(db, app.importer, source, todayIn(config.collectTz));
        if (result.results.some((r) => r.status !== 'unchanged')) app.afterImport();
        return runById(db, result);
      } finally {
        app.dataVersion.invalidate();
      }
    },
  );
  app.get(
    '/sources/:id/runs',
    { schema: { params: sourceParamsSchema, response: { 200: sourceRunsResponseSchema } } },
    async (request) => sourceRuns(db, request.params.id),
  );
};
