import { type Api, GrammyError, HttpError } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';

/** 429s one part may get before the run leaves it for the next one. */
const MAX_RETRIES = 5;

/** How sending a message's parts to a chat ended. */
export type SendOutcome =
  | { status: 'sent' }
  /** the chat is gone for us (blocked, left, deleted): stop writing to it */
  | { status: 'blocked'; error: string }
  /** Telegram refused the message itself: it will not be tried again */
  | { status: 'failed'; error: string }
  /** Telegram unreachable, a 5xx, or 429s past the retries: try again on the next run */
  | { status: 'unreachable'; error: string };

/** Telegram's answer that the chat is gone for us: the user blocked the bot, left, or was deleted. */
function chatGone(error: GrammyError): boolean {
  return (
    error.error_code === 403 ||
    (error.error_code === 400 &&
      /chat not found|user is deactivated|PEER_ID_INVALID/i.test(error.description))
  );
}

/**
 * Sends parts `from`.. of a message to a chat in HTML, waiting out 429s; `sent(i)` records each part
 * Telegram accepted before the next is sent (so a run resumed after a crash starts at the first part not
 * recorded). `keyboard(i)` gives a part its buttons.
 */
export async function sendParts(options: {
  api: Api;
  chatId: string;
  parts: string[];
  from: number;
  keyboard: (i: number) => InlineKeyboardMarkup | undefined;
  sent: (i: number) => Promise<void>;
  sleep: (ms: number) => Promise<void>;
}): Promise<SendOutcome> {
  const { api, chatId, parts } = options;
  for (let i = options.from; i < parts.length; i++) {
    for (let attempt = 0; ; attempt++) {
      try {
        await api.sendMessage(chatId, parts[i]!, {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          reply_markup: options.keyboard(i),
        });
        break;
      } catch (error) {
        if (error instanceof GrammyError && error.error_code === 429 && attempt < MAX_RETRIES) {
          await options.sleep((error.parameters.retry_after ?? 1) * 1000);
          continue;
        }
        if (error instanceof GrammyError && chatGone(error))
          return { status: 'blocked', error: error.description };
        if (error instanceof GrammyError && error.error_code !== 429 && error.error_code < 500)
          return { status: 'failed', error: error.description };
        const message = error instanceof HttpError || error instanceof Error ? error.message : String(error);
        return { status: 'unreachable', error: message };
      }
    }
    await options.sent(i);
  }
  return { status: 'sent' };
}
