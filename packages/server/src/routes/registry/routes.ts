import {
  registryCandidatesQuerySchema,
  registryCandidatesResponseSchema,
  registryLinkBodySchema,
  registryLinkParamsSchema,
  registryLinkResponseSchema,
  registryMarketRequestSchema,
  registryMarketResponseSchema,
  registryObjectsQuerySchema,
  registryObjectsResponseSchema,
  registryPipelineRequestSchema,
  registryPipelineResponseSchema,
  registryReliabilityResponseSchema,
  registrySalesRequestSchema,
  registrySalesResponseSchema,
  registryShiftsQuerySchema,
  registryShiftsResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../auth/actor.js';
import {
  registryCandidates,
  registryMarket,
  registryObjects,
  registryPipeline,
  registryReliability,
  registrySales,
  registryShifts,
} from '../../use-cases/reads.js';
import { linkObject, unlinkObject } from '../../use-cases/registry.js';
import { asMade } from '../range.js';

/** The state registry (DESIGN §12.3): a project's objects, a developer's shifts, the hand links. */
export const registryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/registry/objects',
    {
      schema: {
        description:
          'Объекты реестра (наш.дом.рф) проекта: сроки ввода и их переносы, ключи, продано, продажи по месяцам.',
        querystring: registryObjectsQuerySchema,
        response: { 200: registryObjectsResponseSchema },
      },
    },
    async (request) => registryObjects(app.reads, request.query.projectId),
  );
  app.get(
    '/registry/candidates',
    {
      schema: {
        description:
          'Объекты реестра без проекта, которые можно привязать к проекту: с тем же названием ЖК или в пределах 10 км, ближайшие первыми.',
        querystring: registryCandidatesQuerySchema,
        response: { 200: registryCandidatesResponseSchema },
      },
    },
    async (request) => registryCandidates(app.reads, request.query.projectId),
  );
  app.get(
    '/registry/shifts',
    {
      schema: {
        description: 'Переносы сроков объектов застройщика и «Надёжность сроков» за 12 месяцев.',
        querystring: registryShiftsQuerySchema,
        response: { 200: registryShiftsResponseSchema },
      },
    },
    async (request) => registryShifts(app.reads, request.query.developerId),
  );
  app.get(
    '/registry/reliability',
    {
      schema: {
        description:
          '«Надёжность сроков» всех застройщиков с объектами реестра: доля объектов с переносом ввода на позже, месяцы переносов за 12 месяцев.',
        response: { 200: registryReliabilityResponseSchema },
      },
    },
    async () => registryReliability(app.reads, app.market),
  );
  app.post(
    '/registry/sales',
    {
      schema: {
        description:
          'Зарегистрированные продажи по месяцам (проект, застройщик, место или весь рынок; класс): продано, корректировки, доля продано и выбытие из прайс-листов тех же проектов (gone₃₀).',
        body: registrySalesRequestSchema,
        response: { 200: registrySalesResponseSchema },
      },
    },
    async (request) => registrySales(app.reads, app.market, request.body),
  );
  app.post(
    '/registry/market',
    {
      config: { cache: true },
      schema: {
        description:
          'Все проекты реестра на рынке: наши проекты с объектами реестра и проекты только из реестра (без прайс-листов) — объекты, квартиры, продано по реестру, класс, срок ввода, координаты; по месту, застройщику и классу.',
        body: registryMarketRequestSchema,
        response: { 200: registryMarketResponseSchema },
      },
      // the country's 7,000 registry projects made to the schema by the reader: not checked again on every
      // answer (the API tests hold the body to the schema)
      serializerCompiler: asMade,
    },
    async (request) => registryMarket(app.reads, app.market, request.body),
  );
  app.post(
    '/registry/pipeline',
    {
      schema: {
        description:
          'Старты и ввод по кварталам: объекты, вышедшие в продажу (опубликованы), и заявленный ввод — квартиры, непроданные квартиры, доля продано; по месту и классу.',
        body: registryPipelineRequestSchema,
        response: { 200: registryPipelineResponseSchema },
      },
    },
    async (request) => registryPipeline(app.reads, app.market, request.body),
  );
  app.put(
    '/registry/objects/:objId/link',
    {
      schema: {
        description:
          'Привязка объекта реестра к проекту вручную (важнее правила); projectId: null — отвязать, объект станет проектом реестра.',
        params: registryLinkParamsSchema,
        body: registryLinkBodySchema,
        response: { 200: registryLinkResponseSchema },
      },
    },
    async (request) => linkObject(app.host, request.params.objId, request.body.projectId, actorOf(request)),
  );
  app.delete(
    '/registry/objects/:objId/link',
    {
      schema: {
        description: 'Ручная привязка снята: объект снова сопоставляется по правилу.',
        params: registryLinkParamsSchema,
        response: { 200: registryLinkResponseSchema },
      },
    },
    async (request) => unlinkObject(app.host, request.params.objId, actorOf(request)),
  );
};
