import {
  type Developer,
  developersResponseSchema,
  type PlacesResponse,
  type ProjectPlacesResponse,
  placeEditSchema,
  placeParamsSchema,
  placesResponseSchema,
  projectClassEditSchema,
  projectClassSchema,
  projectPlaceSchema,
  projectPlacesResponseSchema,
  projectQualityParamsSchema,
  projectQualitySchema,
  projectsQuerySchema,
  projectsResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../auth/actor.js';
import { PerVersion } from '../../http/caches.js';
import { projectPlace } from '../../ingest/place.js';
import { NotFoundError } from '../../lib/errors.js';
import { changeClass, changePlace } from '../../use-cases/places.js';
import {
  getDevelopers,
  getPlaces,
  getProjectPlaces,
  getProjectQuality,
  getProjects,
  projectClassInfo,
} from '../../use-cases/reads.js';

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
  const places = new PerVersion<PlacesResponse>();
  app.get(
    '/places',
    {
      config: { etag: true },
      schema: {
        description: 'Регионы, города, районы и станции проектов с данными — для фильтров рынка (§11.3).',
        response: { 200: placesResponseSchema },
      },
    },
    async () => places.get(await app.dataVersion.get(), () => getPlaces(app.reads)),
  );
  const projectPlaces = new PerVersion<ProjectPlacesResponse>();
  app.get(
    '/places/projects',
    {
      config: { etag: true },
      schema: {
        description: 'Место каждого проекта с данными (§11.3): для карты, таблицы и выгрузок «Рынка».',
        response: { 200: projectPlacesResponseSchema },
      },
    },
    async () => projectPlaces.get(await app.dataVersion.get(), () => getProjectPlaces(app.reads)),
  );
  app.get(
    '/projects/:id/place',
    {
      config: { etag: true },
      schema: {
        description:
          'Где проект (§11.3): регион, город, район, адрес, координаты, станции; поля, заданные вручную.',
        params: placeParamsSchema,
        response: { 200: projectPlaceSchema },
      },
    },
    async (request) => {
      const place = await projectPlace(app.reads, request.params.id);
      if (!place) throw new NotFoundError(`проект ${request.params.id} не найден`);
      return place;
    },
  );
  app.put(
    '/projects/:id/place',
    {
      schema: {
        description:
          'Правка места проекта вручную: каждое переданное поле важнее источников; null возвращает значение источников.',
        params: placeParamsSchema,
        body: placeEditSchema,
        response: { 200: projectPlaceSchema },
      },
    },
    async (request) => changePlace(app.host, request.params.id, request.body, actorOf(request)),
  );
  app.get(
    '/projects/:id/class',
    {
      schema: {
        description:
          'Класс проекта для «Рынка» и его источник (§12.3): вручную, по реестру или по ценовым границам региона; что говорит каждый источник.',
        params: placeParamsSchema,
        response: { 200: projectClassSchema },
      },
    },
    async (request) => projectClassInfo(app.reads, app.market, request.params.id),
  );
  app.put(
    '/projects/:id/class',
    {
      schema: {
        description: 'Класс проекта вручную (важнее реестра и цены); null возвращает класс реестру и цене.',
        params: placeParamsSchema,
        body: projectClassEditSchema,
        response: { 200: projectClassSchema },
      },
    },
    async (request) =>
      changeClass(app.host, app.market, request.params.id, request.body.priceClass, actorOf(request)),
  );
};
