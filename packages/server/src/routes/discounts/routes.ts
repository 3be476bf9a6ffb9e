import {
  discountProjectRequestSchema,
  discountProjectResponseSchema,
  discountRequestSchema,
  discountResponseSchema,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getDiscounts, getProjectDiscounts } from '../../read/discounts.js';

export const discountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/discount',
    {
      config: { cache: true },
      schema: { body: discountRequestSchema, response: { 200: discountResponseSchema } },
    },
    async (request) => getDiscounts(app.reads, app.stats, request.body),
  );
  app.post(
    '/discount/project',
    {
      config: { cache: true },
      schema: { body: discountProjectRequestSchema, response: { 200: discountProjectResponseSchema } },
    },
    async (request) => getProjectDiscounts(app.reads, app.stats, request.body),
  );
};
