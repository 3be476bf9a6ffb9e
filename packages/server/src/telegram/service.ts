import type { Api, Bot } from 'grammy';
import type { Config } from '../config.js';
import type { Db } from '../db/driver.js';
import { type JobLog, JobRunner } from '../jobs/jobs.js';
import { ALERTS_JOB, AlertPublisher } from './alert-publisher.js';
import { COMMANDS, createBot } from './bot.js';
import { PUBLISHER_JOB, Publisher, type PublishReport } from './publisher.js';
import { botOff } from './start.js';

export type TelegramLog = JobLog;

/** The running bot and publisher of one process. */
export interface Telegram {
  bot: Bot;
  publisher: Publisher;
  /** the watchlists' daily alert messages */
  alerts: AlertPublisher;
  /** After an import: a publisher run once the summary has settled. */
  imported(): void;
  /** One publisher run now (also what the timer does). */
  publish(): Promise<PublishReport | null>;
  /** A message to TELEGRAM_ADMIN_CHAT_ID, when it is set (collection problems). */
  notifyAdmin(text: string): Promise<void>;
  stop(): Promise<void>;
}

/** The publisher of the configured channel and public URL, sending through `api`. */
export function publisherFor(db: Db, config: Config, api: Api, log: TelegramLog): Publisher {
  return new Publisher({
    db,
    api,
    channelId: config.telegramChannelId,
    publicUrl: config.publicUrl,
    settleSeconds: config.telegramSettleSeconds,
    log,
  });
}

/** The watchlist alert publisher of the configured public URL and time zone, sending through `api`. */
export function alertPublisherFor(db: Db, config: Config, api: Api, log: TelegramLog): AlertPublisher {
  return new AlertPublisher({
    db,
    api,
    publicUrl: config.publicUrl,
    settleSeconds: config.telegramSettleSeconds,
    timeZone: config.collectTz,
    log,
  });
}

/**
 * Starts the bot (long polling) and the daily-summary publisher when TELEGRAM_BOT_TOKEN is set; without it
 * one log line says the bot is off and nothing else runs.
 */
export async function startTelegram(db: Db, config: Config, log: TelegramLog): Promise<Telegram | null> {
  const token = config.telegramBotToken;
  if (botOff(config, log) || !token) return null;
  const bot = createBot({ db, token, apiRoot: config.telegramApiRoot, publicUrl: config.publicUrl, log });
  const publisher = publisherFor(db, config, bot.api, log);
  const alerts = alertPublisherFor(db, config, bot.api, log);
  const jobs = new JobRunner(db, log);
  const publish = async () => {
    const outcome = await jobs.run(PUBLISHER_JOB);
    return outcome?.status === 'done' ? (outcome.result as PublishReport) : null;
  };

  await bot.init();
  // the publisher runs as a job: polled for other processes' imports, triggered after this one's
  jobs.add(publisher.job(config.telegramPollSeconds));
  jobs.add(alerts.job(config.telegramPollSeconds));
  await bot.api
    .setMyCommands(COMMANDS)
    .catch((error) => log.warn({ err: error }, 'telegram: команды не заданы'));
  const polling = bot.start({ onStart: (me) => log.info({ bot: me.username }, 'telegram: бот запущен') });
  polling.catch((error) => log.error({ err: error }, 'telegram: опрос обновлений остановлен'));
  void publish();
  return {
    bot,
    publisher,
    alerts,
    imported: () => {
      jobs.trigger(PUBLISHER_JOB, config.telegramSettleSeconds * 1000 + 100);
      jobs.trigger(ALERTS_JOB, config.telegramSettleSeconds * 1000 + 100);
    },
    publish,
    async notifyAdmin(text: string) {
      if (config.telegramAdminChatId)
        await bot.api.sendMessage(config.telegramAdminChatId, text.slice(0, 4096));
    },
    async stop() {
      await jobs.stop();
      await bot.stop();
    },
  };
}
