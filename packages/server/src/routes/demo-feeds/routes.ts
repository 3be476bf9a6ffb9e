import { dataDateSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { demoPikPage, demoYrl } from '../../demo/feeds.js';
import { todayIn } from '../../lib/days.js';

const query = z.object({
  date: dataDateSchema.optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});

/** The demo's own price lists (DESIGN §10.8), open like any developer's: a YRL feed and a paged PIK-like API. */
export const demoFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  const today = () => todayIn(app.deps.config.collectTz);
  app.get('/ruchey.xml', { schema: { hide: true, querystring: query } }, async (request, reply) =>
    reply.type('application/xml; charset=utf-8').send(demoYrl(request.query.date ?? today())),
  );
  app.get('/pik-api', { schema: { hide: true, querystring: query } }, async (request) =>
    demoPikPage(request.query.date ?? today(), request.query.page),
  );
};
