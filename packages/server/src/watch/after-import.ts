import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/driver.js';
import { computeAlerts } from './alerts.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** after an import or a collection applied snapshots: the alerts computed, then `onImported` told */
    afterImport: () => void;
    /** the watchlists' alerts of the events not yet read (after imports and at start) */
    computeAlerts: () => Promise<void>;
  }
}

/**
 * What follows an import that applied snapshots: the watchlists' alerts (one computation at a time across
 * processes), then the Telegram publisher is told. The derived data need nothing here: the import kept them.
 */
export const afterImport = fp(
  async (app: FastifyInstance, opts: { db: Db; onImported?: () => void }) => {
    let alerting: Promise<void> = Promise.resolve();
    app.decorate('computeAlerts', () => {
      const run = opts.db
        .withLock('watch-alerts', () => computeAlerts(opts.db))
        .then(
          (report) => {
            if (report.alerts) app.log.info(report, 'уведомления об избранном');
          },
          (error: unknown) => app.log.warn({ err: error }, 'уведомления об избранном не посчитаны'),
        );
      alerting = alerting.then(() => run);
      return run;
    });
    app.decorate('afterImport', () => {
      void app.computeAlerts().then(() => opts.onImported?.());
    });
    // a computation under way finishes before the database closes
    app.addHook('onClose', async () => {
      await alerting;
    });
  },
  { name: 'after-import' },
);
