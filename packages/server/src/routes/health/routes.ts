import { healthSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isDemoData } from '../../demo/meta.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { config: { public: true }, schema: { response: { 200: healthSchema } } }, async () => {
    const { db } = app.deps;
    const [row] = await db.query<{ last: string | null }>(
      'select max(last_snapshot_date)::text as last from project',
    );
    return {
      status: 'ok' as const,
      database: db.kind,
      lastSnapshotDate: row?.last ?? null,
      demo: await isDemoData(db),
      telegramChannelUrl: app.deps.config.telegramChannelUrl ?? null,
    };
  });
};
