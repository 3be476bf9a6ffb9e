import {
  type Developer,
  developersResponseSchema,
  projectQualityParamsSchema,
  projectQualitySchema,
  projectsQuerySchema,
  projectsResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PerVersion } from '../../http/caches.js';
import { getProjectQuality } from './quality.js';
import { getDevelopers, getProjects } from './queries.js';

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const developers = new PerVersion<Developer[]>();
  app.get(
    '/developers',
    { config: { etag: true }, schema: { response: { 200: developersResponseSchema } } },
    async () => developers.get(await app.dataVersion.get(), () => getDevelopers(app.reads)),
  );
  app.get(
    '/projects',
    {
      config: { etag: true },
      schema: { querystring: projectsQuerySchema, response: { 200: projectsResponseSchema } },
    },
    async (request) => getProjects(app.reads, request.query.developerId),
  );
  app.get(
    '/projects/:id/quality',
    {
      config: { etag: true },
      schema: {
        description: 'Качество данных проекта: снимки, перерывы, неполные сканы, изменения площади, выбросы.',
        params: projectQualityParamsSchema,
        response: { 200: projectQualitySchema },
      },
    },
    async (request) => getProjectQuality(app.reads, request.params.id, app.deps.config.maxCarryDays),
  );
};
