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
import { audit } from '../../audit/log.js';
import { collectSource, loggedRun } from '../../collect/collector.js';
import { nextCollect } from '../../collect/schedule.js';
import { addSource, getSource, loggedSource, removeSource, updateSource } from '../../collect/sources.js';
import { todayIn } from '../../lib/days.js';
import { actorOf } from '../actor.js';
import { runById, sourceRuns, sourceView, sourceViews } from './queries.js';

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
      const s = await addSource(db, request.body);
      await audit(db, actorOf(request), 'source.create', s.name, null, loggedSource(s));
      return reply.code(201).send(await sourceView(db, s.id, next()));
    },
  );
  app.patch(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, body: sourcePatchSchema, response: { 200: sourceSchema } } },
    async (request) => {
      const before = await getSource(db, request.params.id);
      const after = await updateSource(db, request.params.id, request.body);
      await audit(
        db,
        actorOf(request),
        'source.update',
        after.name,
        loggedSource(before),
        loggedSource(after),
      );
      return sourceView(db, request.params.id, next());
    },
  );
  app.delete(
    '/sources/:id',
    { schema: { params: sourceParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      const before = await getSource(db, request.params.id);
      await removeSource(db, request.params.id);
      await audit(db, actorOf(request), 'source.delete', before.name, loggedSource(before), null);
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
        await audit(db, actorOf(request), 'collect.run', source.name, null, loggedRun(result));
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
