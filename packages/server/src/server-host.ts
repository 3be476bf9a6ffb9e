import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from './db/driver.js';
import type { Importer } from './ingest/importer.js';
import type { MarketReader } from './read/market-reader.js';
import { computeAlertsLocked, type Host } from './use-cases/host.js';
import { MarketKeeper } from './use-cases/market-spans.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** what the acts of use-cases/ need of this server: its importer, caches, alerts and publisher */
    host: Host;
    /** the watchlists' alerts of the events not yet read (after imports and at start) */
    computeAlerts: () => Promise<void>;
    /** the rounds that keep the market's spans (use-cases/market-spans.ts) */
    marketKeeper: MarketKeeper;
  }
}

/**
 * The server as a host of the acts (use-cases/host.ts): after a change its read caches are forgotten at
 * once, the market's kept spans made again by a round a moment later, and the watchlists' alerts are computed after the answer is sent — one computation at a time
 * across processes, a failure logged — then the Telegram publisher is told (`onImported`).
 */
export const serverHost = fp(
  async (
    app: FastifyInstance,
    opts: { db: Db; importer: Importer; market: MarketReader; onImported?: () => void },
  ) => {
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
    const keeper = new MarketKeeper(
      opts.db,
      opts.market,
      (error, what) =>
        app.log.warn(
          { err: error },
          what === 'round'
            ? 'ряды рынка не сохранены'
            : 'список проектов и первый рейтинг рынка не прочитаны',
        ),
      {
        onRound: (report) => {
          if (report.made || report.links.made) app.log.info(report, 'ряды рынка сохранены');
        },
      },
    );
    app.decorate('marketKeeper', keeper);
    app.decorate('host', {
      db: opts.db,
      importer: opts.importer,
      invalidate: () => app.dataVersion.invalidate(),
      alertsThenNotify: async () => {
        void app.computeAlerts().then(() => opts.onImported?.());
      },
      keepMarket: async () => keeper.schedule(),
    } satisfies Host);
    // the market's list of projects (every «Рынок» request, the hedonic index and the fair price select from it)
    // read as the server gets ready, not by its first request: one query, ~0.1 s at 5,000 projects; then, in
    // the background, «Рынок»'s first ranking's months (~0.8 s: a ranking asked meanwhile waits for them)
    app.addHook('onReady', async () => {
      await opts.market
        .projects(app.reads)
        .catch((error: unknown) => app.log.warn({ err: error }, 'список проектов рынка не прочитан'));
      keeper.holdAhead();
    });
    // a computation under way finishes before the database closes
    app.addHook('onClose', async () => {
      await keeper.close();
      await alerting;
    });
  },
  { name: 'server-host' },
);
