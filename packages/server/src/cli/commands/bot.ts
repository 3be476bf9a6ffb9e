import type { Command } from 'commander';
import { createLogger, logFormatFor } from '../../http/log.js';
import { CliError } from '../../lib/errors.js';
import { type GlobalOptions, openContext } from '../context.js';
import { printRows } from '../output.js';

/**
 * `cena-metra bot`: the Telegram bot, the daily-summary publisher and the watchlist alerts without the web
 * server (e.g. a separate process on PostgreSQL). `--once`: one run of each publisher, their reports
 * printed, then exit (cron).
 */
export function registerBot(program: Command, globals: () => GlobalOptions) {
  program
    .command('bot')
    .description('запустить Telegram-бота и рассылку ежедневной сводки')
    .option('--once', 'один раз разослать готовую сводку и выйти')
    .action(async (opts: { once?: boolean }) => {
      const ctx = await openContext(globals(), 'bot');
      const { config, db } = ctx;
      const log = createLogger(
        config.logLevel,
        logFormatFor(config.logFormat, process.stderr),
        process.stderr,
      );
      try {
        if (!config.telegramBotToken) throw new CliError('TELEGRAM_BOT_TOKEN не задан: бот выключен', 2);
        // the bot's code (grammY) loaded by this command alone: every other command starts without it
        const [{ Bot }, { alertPublisherFor, publisherFor, startTelegram }] = await Promise.all([
          import('grammy'),
          import('../../telegram/service.js'),
        ]);
        if (opts.once) {
          const bot = new Bot(config.telegramBotToken, {
            client: config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : undefined,
          });
          const report = await publisherFor(db, config, bot.api, log).run();
          const alerts = await alertPublisherFor(db, config, bot.api, log).run();
          const json = globals().json;
          const runs = [
            { job: 'summary', what: 'сводка', ...report },
            { job: 'alerts', what: 'избранное', ...alerts },
          ];
          printRows(
            runs.map(({ job, what, planned, sent, blocked, failed, pending }) =>
              json
                ? { job, planned, sent, blocked, failed, pending }
                : {
                    рассылка: what,
                    запланировано: planned ?? '—',
                    отправлено: sent,
                    'чат недоступен': blocked,
                    отклонено: failed,
                    отложено: pending,
                  },
            ),
            json,
          );
          await ctx.close();
          return;
        }
        const telegram = await startTelegram(db, config, log);
        await new Promise<void>((done) => {
          const stop = () => void telegram?.stop().then(done, done);
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        await ctx.close();
      } catch (error) {
        await ctx.close();
        throw error;
      }
    });
}
