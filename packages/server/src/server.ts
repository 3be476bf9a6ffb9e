import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Context } from './cli/context.js';
import { replicaUrls } from './config.js';
import { ReadRouter } from './db/replicas.js';
import { registerDemoSources } from './demo/register-sources.js';
import { DEMO_USER } from './demo/run.js';
import { createLogger, logFormatFor } from './http/log.js';
import { JobRunner } from './jobs/jobs.js';
import { builtWebApp } from './lib/web-root.js';
import type { Telegram } from './telegram/service.js';
import { startTelegramIfSet } from './telegram/start.js';
import { collectJob } from './use-cases/collect-job.js';
import { getUserByName } from './use-cases/users.js';

/** The process around the app: listen, print where, graceful shutdown on signals. */
export async function serve(ctx: Context): Promise<FastifyInstance> {
  const { config, db } = ctx;
  let telegram: Telegram | null = null;
  const replicas = replicaUrls(config);
  const reads = replicas.length
    ? await ReadRouter.open(db, replicas, {
        maxLagS: config.maxReplicaLagS,
        timeoutMs: config.replicaTimeoutS * 1000,
      })
    : undefined;
  const app = await buildApp({
    db,
    reads,
    config,
    webRoot: builtWebApp(),
    logger:
      config.logLevel === 'silent'
        ? false
        : createLogger(config.logLevel, logFormatFor(config.logFormat, process.stdout)),
    onImported: () => telegram?.imported(),
  });
  // the daily collection of the sources (DESIGN §10.8), once across instances
  const jobs = new JobRunner(db, app.log);
  jobs.add(
    collectJob({
      host: app.host,
      collectAt: config.collectAt,
      timezone: config.collectTz,
      notify: async (text) => telegram?.notifyAdmin(text),
    }),
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'останавливаюсь');
    await jobs.stop();
    await telegram?.stop();
    await app.close();
    await reads?.close();
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  void app.computeAlerts();
  // the market's spans brought up to date with what changed while no server ran (another process, a migration)
  app.marketKeeper.schedule();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const demoUser = await getUserByName(db, DEMO_USER.username);
  process.stdout.write(`Цена метра: http://${config.host}:${port} (база: ${db.kind})\n`);
  // Telegram being unreachable must not keep the web app from serving: the bot starts beside it.
  const starting = startTelegramIfSet(db, config, app.log).then(
    (t) => {
      telegram = t;
      if (closing) void t?.stop();
    },
    (error) => app.log.error({ err: error }, 'telegram: бот не запущен'),
  );
  void starting;
  if (demoUser) {
    process.stdout.write(`вход: ${DEMO_USER.username} / ${DEMO_USER.password}\n`);
    // the demo's own price lists, collected like any developer's (DESIGN §10.8), read in-process
    await registerDemoSources(db).catch((error) =>
      app.log.warn({ err: error }, 'демо-источники не зарегистрированы'),
    );
  }
  return app;
}
