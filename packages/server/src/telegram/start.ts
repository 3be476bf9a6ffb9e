import type { Config } from '../config.js';
import type { Db } from '../db/driver.js';
import type { Telegram, TelegramLog } from './service.js';

/** Whether the bot is off (no TELEGRAM_BOT_TOKEN); then one log line says so. */
export function botOff(config: Config, log: TelegramLog): boolean {
  if (config.telegramBotToken) return false;
  log.info({}, 'telegram: бот выключен (TELEGRAM_BOT_TOKEN не задан)');
  return true;
}

/**
 * The bot and the publishers when TELEGRAM_BOT_TOKEN is set, their code (grammY) loaded only then: a server
 * without a bot starts without it. Without the token one log line says the bot is off.
 */
export async function startTelegramIfSet(db: Db, config: Config, log: TelegramLog): Promise<Telegram | null> {
  return botOff(config, log) ? null : (await import('./service.js')).startTelegram(db, config, log);
}
