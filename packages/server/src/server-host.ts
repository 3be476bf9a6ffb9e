import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from './db/driver.js';
import type { Importer } from './ingest/importer.js';
import { computeAlertsLocked, type Host } from './use-cases/host.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** what the acts of use-cases/ need of this server: its importer, caches, alerts and publisher */
    host: Host;
    /** the watchlists' alerts of the events not yet read (after imports and at start) */
    computeAlerts: () => Promise<void>;
  }
}

/**
 * The server as a host of the acts (use-cases/host.ts): after a change its read caches are forgotten at
 * once, and the watchlists' alerts are computed after the answer is sent — one computation at a time
 * across processes, a failure logged — then the Telegram publisher is told (`onImported`).
 */
export const serverHost = fp(
  async (app: FastifyInstance, opts: { db: Db; importer: Importer; onImported?: () => void }) => {
    let alerting: Promise<void> = Promise.resolve();
    app.decorate('computeAlerts', () => {
      const run = computeAlertsLocked(opts.db).then(
        (report) => {
          if (report.alerts) app.log.info(report, 'уведомления об избранном');
        },
        (error: unknown) => app.log.warn({ err: error }, 'уведомления об избранном не посчитаны'),
      );
      alerting = alerting.then(() => run);
      return run;
    });
    app.decorate('host', {
      db: opts.db,
      importer: opts.importer,
      invalidate: () => app.dataVersion.invalidate(),
      alertsThenNotify: async () => {
        void app.computeAlerts().then(() => opts.onImported?.());
      },
    } satisfies Host);
    // a computation under way finishes before the database closes
    app.addHook('onClose', async () => {
      await alerting;
    });
  },
  { name: 'server-host' },
);
