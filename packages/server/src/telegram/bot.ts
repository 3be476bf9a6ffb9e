import { hasControlCharacters, MAX_NAME_LENGTH, watchRulesSchema } from '@cena-metra/contract';
import { Bot, type Context } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Db } from '../db/driver.js';
import { AppError, NotFoundError } from '../lib/errors.js';
import { getFlatCard } from '../use-cases/reads.js';
import {
  chatSubscription,
  findProjects,
  latestSummary,
  loadSummaryDay,
  projectNames,
  subscribeAll,
  subscribeProject,
  unsubscribe,
} from '../use-cases/subscriptions.js';
import { addWatch, linkChat, listWatches, removeFlatWatch, userOfChat } from '../use-cases/watch.js';
import { digestBlocks, digestOf, escapeHtml, flatCardText, splitMessage } from './format.js';

export interface BotOptions {
  db: Db;
  token: string;
  /** TELEGRAM_API_ROOT: Telegram's by default; tests point it at a local fake Bot API. */
  apiRoot?: string;
  /** PUBLIC_URL: where the buttons lead (no buttons without it). */
  publicUrl?: string;
  log: { error(obj: object, msg: string): void };
}

export const COMMANDS = [
  { command: 'summary', description: 'Последняя ежедневная сводка' },
  { command: 'flat', description: 'Карточка квартиры: /flat 27734' },
  { command: 'subscribe', description: 'Подписка на сводку: все проекты или /subscribe проект' },
  { command: 'unsubscribe', description: 'Отписаться от сводки' },
  { command: 'watch', description: 'Следить за квартирой: /watch 27734' },
  { command: 'unwatch', description: 'Перестать следить: /unwatch 27734' },
  { command: 'help', description: 'Что умеет бот' },
];

const HELP = [
  '<b>Цена метра</b> — цены новостроек по прайс-листам застройщиков, каждый день.',
  '',
  '/summary — последняя ежедневная сводка',
  '/flat &lt;номер&gt; — карточка квартиры и последние изменения цены',
  '/subscribe — сводка по всем проектам каждый день',
  '/subscribe &lt;проект или номер&gt; — только по этому проекту (можно несколько)',
  '/unsubscribe — отписаться',
  '/watch &lt;номер&gt; — следить за квартирой (нужна привязка аккаунта в профиле на сайте)',
  '/unwatch &lt;номер&gt; — перестать следить; /unwatch — список избранного',
  '/help — эта справка',
].join('\n');

/** The bot's commands (DESIGN §7), in Russian; unknown input gets the list of commands. */
export function createBot(options: BotOptions): Bot {
  const { db, publicUrl } = options;
  const bot = new Bot(options.token, options.apiRoot ? { client: { apiRoot: options.apiRoot } } : undefined);
  const html = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };

  /** A button to a page: a WebApp in a private chat, a link elsewhere. */
  const button = (ctx: Context, text: string, path: string): InlineKeyboardMarkup | undefined => {
    if (!publicUrl) return undefined;
    const url = `${publicUrl.replace(/\/+$/, '')}${path}`;
    return { inline_keyboard: [[ctx.chat?.type === 'private' ? { text, web_app: { url } } : { text, url }]] };
  };
  const describe = async (chatId: number) => {
    const sub = await chatSubscription(db, chatId);
    if (sub === null) return 'Вы не подписаны на сводку.';
    if (sub === 'all') return 'Вы подписаны на сводку по всем проектам.';
    return `Вы подписаны на сводку по проектам: ${(await projectNames(db, sub)).map(escapeHtml).join(', ')}.`;
  };

  bot.command('start', async (ctx) => {
    const code = ctx.match.trim();
    if (code) {
      // the one-time code from the profile page links this chat to the account (issue 17); a group is not
      // one person's chat, and the code is left unused for the private one
      if (ctx.chat.type !== 'private')
        return ctx.reply('Аккаунт привязывается только в личном чате с ботом: отправьте код туда.');
      const username = /^\d{8}$/.test(code) ? await linkChat(db, code, ctx.chat.id) : null;
      return ctx.reply(
        username
          ? `Готово: чат привязан к аккаунту «${escapeHtml(username)}».\nРаз в день пришлю изменения по избранному. /watch &lt;номер&gt; — следить за квартирой.`
          : 'Код не подошёл: он неверный, уже использован или устарел (действует 15 минут). Получите новый в профиле на сайте.',
        html,
      );
    }
    await subscribeAll(db, ctx.chat.id);
    await ctx.reply(
      `Здравствуйте! Я бот «Цена метра».\nКаждый день после загрузки прайс-листов пришлю сводку: новые и снятые квартиры, подорожания и скидки.\n\n${await describe(ctx.chat.id)}\n/help — все команды.`,
      html,
    );
  });

  bot.command('help', (ctx) => ctx.reply(HELP, html));

  bot.command('subscribe', async (ctx) => {
    const query = ctx.match.trim();
    if (!query) {
      await subscribeAll(db, ctx.chat.id);
      return ctx.reply(await describe(ctx.chat.id), html);
    }
    if (query.length > MAX_NAME_LENGTH || hasControlCharacters(query))
      return ctx.reply(
        `Название проекта — до ${MAX_NAME_LENGTH} символов, без управляющих символов. Например: /subscribe Академический, /subscribe 23.`,
      );
    const found = await findProjects(db, query);
    if (found.length === 0)
      return ctx.reply(
        `Проект «${escapeHtml(query)}» не найден. Укажите название или номер: /subscribe Академический, /subscribe 23.`,
        html,
      );
    if (found.length > 1)
      return ctx.reply(
        [
          `Нашлось несколько проектов по «${escapeHtml(query)}». Укажите номер:`,
          ...found.map((p) => `/subscribe ${p.id} — ${escapeHtml(p.name)} (${escapeHtml(p.developerName)})`),
        ].join('\n'),
        html,
      );
    const [project] = found;
    await subscribeProject(db, ctx.chat.id, project!.id);
    return ctx.reply(
      `Готово: ${escapeHtml(project!.name)} (${escapeHtml(project!.developerName)}).\n${await describe(ctx.chat.id)}`,
      html,
    );
  });

  bot.command('unsubscribe', async (ctx) => {
    const removed = await unsubscribe(db, ctx.chat.id);
    await ctx.reply(
      removed
        ? 'Подписка отменена. Вернуться: /subscribe.'
        : 'Вы и так не подписаны. Подписаться: /subscribe.',
    );
  });

  bot.command('summary', async (ctx) => {
    const latest = await latestSummary(db);
    const digest = latest && digestOf(await loadSummaryDay(db, latest.id), null);
    if (!latest || !digest)
      return ctx.reply('Сводок пока нет: они появятся после первой загрузки прайс-листов.');
    const parts = splitMessage(digestBlocks(digest));
    for (const [i, part] of parts.entries())
      await ctx.reply(part, {
        ...html,
        reply_markup:
          i === parts.length - 1 ? button(ctx, 'Открыть сводку', `/summary/${latest.id}`) : undefined,
      });
  });

  bot.command('flat', async (ctx) => {
    const arg = ctx.match.trim().replace(/^№\s*/, '');
    if (!/^\d{1,9}$/.test(arg) || Number(arg) < 1)
      return ctx.reply('Укажите номер квартиры в базе, например: /flat 27734');
    try {
      const card = await getFlatCard(db, Number(arg));
      return ctx.reply(flatCardText(card), {
        ...html,
        reply_markup: button(ctx, 'История цены', `/summary/flat/${card.flatId}`),
      });
    } catch (error) {
      if (error instanceof NotFoundError) return ctx.reply(`Квартира ${arg} не найдена.`);
      throw error;
    }
  });

  /**
   * The account of a chat that may keep a watchlist, or a reply saying why not: no account linked, or a
   * viewer's (they read, DESIGN §11.5).
   */
  const account = async (ctx: Context) => {
    const user = await userOfChat(db, ctx.chat!.id);
    if (!user)
      await ctx.reply(
        'Чат не привязан к аккаунту. Откройте профиль на сайте, получите код и отправьте сюда /start &lt;код&gt;.',
        html,
      );
    else if (user.role === 'viewer')
      await ctx.reply(
        'Нет доступа: избранное ведут аналитики, а у аккаунта роль «Наблюдатель». Сводки и карточки квартир доступны: /summary, /flat.',
      );
    return user?.role === 'viewer' ? null : user;
  };

  bot.command('watch', async (ctx) => {
    const arg = ctx.match.trim().replace(/^№\s*/, '');
    if (!/^\d{1,9}$/.test(arg) || Number(arg) < 1)
      return ctx.reply('Укажите номер квартиры в базе, например: /watch 27734');
    const user = await account(ctx);
    if (!user) return;
    try {
      const watch = await addWatch(db, user.id, {
        kind: 'flat',
        flatId: Number(arg),
        rules: watchRulesSchema.parse({}),
      });
      return ctx.reply(
        `Слежу: ${escapeHtml(watch.label)}.\nПришлю, если изменится цена, квартиру снимут с продажи или вернут.`,
        { ...html, reply_markup: button(ctx, 'Карточка квартиры', `/summary/flat/${arg}`) },
      );
    } catch (error) {
      if (error instanceof NotFoundError) return ctx.reply(`Квартира ${arg} не найдена.`);
      // the user's own limit (too many watched items): said as the site says it
      if (error instanceof AppError) return ctx.reply(`Не получилось: ${error.message}.`);
      throw error;
    }
  });

  bot.command('unwatch', async (ctx) => {
    const arg = ctx.match.trim().replace(/^№\s*/, '');
    if (arg && (!/^\d{1,9}$/.test(arg) || Number(arg) < 1))
      return ctx.reply('Укажите номер квартиры, например: /unwatch 27734');
    const user = await account(ctx);
    if (!user) return;
    if (arg)
      return ctx.reply(
        (await removeFlatWatch(db, user.id, Number(arg)))
          ? `Больше не слежу за квартирой № ${arg}.`
          : `Квартира № ${arg} не в избранном.`,
      );
    const flats = (await listWatches(db, user.id)).filter((w) => w.kind === 'flat').slice(0, 50);
    return ctx.reply(
      flats.length
        ? ['Избранные квартиры:', ...flats.map((w) => `/unwatch ${w.flatId} — ${escapeHtml(w.label)}`)].join(
            '\n',
          )
        : 'В избранном нет квартир. Следить: /watch &lt;номер&gt;.',
      html,
    );
  });

  bot.on('message', (ctx) => {
    const text = ctx.message.text?.trim();
    const what = text
      ? `«${escapeHtml(text.length > 50 ? `${text.slice(0, 50)}…` : text)}»`
      : 'это сообщение';
    return ctx.reply(`Не понимаю ${what}.\n\n${HELP}`, html);
  });

  bot.catch(async (error) => {
    options.log.error({ err: error.error, update: error.ctx.update.update_id }, 'telegram: ошибка обработки');
    await error.ctx.reply('Не получилось ответить: ошибка на сервере. Попробуйте позже.').catch(() => {});
  });
  return bot;
}
