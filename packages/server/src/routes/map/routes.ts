import { type MapConfigResponse, mapConfigResponseSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BASEMAP_URL } from './tiles.js';

/** What basemap «Рынок»'s map draws (issue 46): our PMTiles, an operator's style, or none (the outline). */
export const mapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/map/config', { schema: { response: { 200: mapConfigResponseSchema } } }, async () => {
    const { mapPmtiles, mapStyleUrl } = app.deps.config;
    const answer: MapConfigResponse = mapStyleUrl
      ? { basemap: 'style', url: mapStyleUrl }
      : mapPmtiles
        ? { basemap: 'pmtiles', url: BASEMAP_URL }
        : { basemap: 'none', url: null };
    return answer;
  });
};
