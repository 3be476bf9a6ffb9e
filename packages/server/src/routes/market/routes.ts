import {
  belowComparablesRequestSchema,
  belowComparablesResponseSchema,
  compareRequestSchema,
  compareResponseSchema,
  hedonicRequestSchema,
  hedonicResponseSchema,
  type MarketResponse,
  marketMapRequestSchema,
  marketMapResponseSchema,
  marketPaceRequestSchema,
  marketPaceResponseSchema,
  marketRequestSchema,
  marketResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { compareProjects, marketMap } from '../../use-cases/reads.js';
import { asMade, checkSeriesRange } from '../range.js';
import { marketBody } from './json.js';

/**
 * The market's ranking, a developer's or the market's pace (§10.5–10.6), a segment's hedonic index (§12.4)
 * and the comparison of projects.
 */
export const marketRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/market',
    {
      config: { cache: true },
      schema: { body: marketRequestSchema, response: { 200: marketResponseSchema } },
      // the whole country's ranking is thousands of rows the reader made to the schema: checking each of
      // them again on every answer cost a third of the request; the API tests hold the body to the schema.
      // Written as bytes (json.ts); Fastify sends a serializer's buffer as it is.
      serializerCompiler: () => (data) => marketBody(data as MarketResponse) as unknown as string,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return app.market.market(app.reads, request.body);
    },
  );
  app.post(
    '/market/map',
    {
      config: { cache: true },
      schema: {
        description:
          'Карта «Рынка» столбцами: проекты выборки с координатами (сначала проекты только из реестра) — размер круга, цена м², индекс, вымываемость, данные реестра; проекты без координат отдельно.',
        body: marketMapRequestSchema,
        response: { 200: marketMapResponseSchema },
      },
      // ~17,000 points of the country made to the schema by the reader (the API tests hold it to the schema)
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return marketMap(app.reads, app.market, request.body);
    },
  );
  app.post(
    '/market/pace',
    {
      config: { cache: true },
      schema: { body: marketPaceRequestSchema, response: { 200: marketPaceResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return app.market.marketPace(app.reads, request.body);
    },
  );
  app.post(
    '/market/hedonic',
    {
      config: { cache: true },
      schema: { body: hedonicRequestSchema, response: { 200: hedonicResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      return app.hedonic.index(app.reads, request.body);
    },
  );
  app.post(
    '/market/below-comparables',
    {
      config: { cache: true },
      schema: { body: belowComparablesRequestSchema, response: { 200: belowComparablesResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => app.fair.belowComparables(app.reads, request.body),
  );
  app.post(
    '/compare',
    {
      config: { cache: true },
      schema: { body: compareRequestSchema, response: { 200: compareResponseSchema } },
      serializerCompiler: asMade,
    },
    async (request) => {
      checkSeriesRange(request.body.from, request.body.to);
      // the hedonic index is each project's own (a segment of one), from the kept months
      const { metric, ...rest } = request.body;
      if (metric === 'hedonic') return app.hedonic.compare(app.reads, rest);
      return compareProjects(app.market, app.reads, { ...rest, metric });
    },
  );
};
