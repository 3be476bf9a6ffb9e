import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { chatSubscription } from '../src/db/queries/bot.js';
import { addUser } from '../src/db/queries/users.js';
import { createBot } from '../src/telegram/bot.js';
import { Publisher } from '../src/telegram/publisher.js';
import { startTelegram } from '../src/telegram/service.js';
import { describeEachDb } from './databases.js';
import { botDatabase, botOnce, FakeTelegram, finished, killedWhileSending } from './fake-telegram.js';
import { flat, snap } from './market-fixture.js';

const NB = '\u00a0';
const PUBLIC_URL = 'https://cena.example';
const CHANNEL = '@cena_metra';
const BIN = join(import.meta.dirname, '../bin/cena-metra.js');
const silent = { info() {}, warn() {}, error() {} };

// The known dataset. 11-02 is the newest day:
//   Пионер · Северный квартал: a 8.0 → 7.6 M (−5 %), b 12.0 → 12.6 M (+5 %), c unchanged, d new
//   ЛСР · Тихий двор: x unchanged            Самолет · Северная звезда: first snapshot (a new project)
const MARKET = [
  snap('2026-11-01', 'Пионер', 'Северный квартал', [
    flat('a', 1, 40, 8_000_000),
    flat('b', 2, 60, 12_000_000),
    flat('c', 0, 25, 6_000_000),
  ]),
  snap('2026-11-01', 'ЛСР', 'Тихий двор', [flat('x', 2, 50, 10_000_000)]),
  snap('2026-11-02', 'Пионер', 'Северный квартал', [
    flat('a', 1, 40, 7_600_000),
    flat('b', 2, 60, 12_600_000),
    flat('c', 0, 25, 6_000_000),
    flat('d', 3, 80, 16_000_000),
  ]),
  snap('2026-11-02', 'ЛСР', 'Тихий двор', [flat('x', 2, 50, 10_000_000)]),
  snap('2026-11-02', 'Самолет', 'Северная звезда', [flat('y', 1, 45, 9_000_000)]),
];

describeEachDb('Telegram bot and daily-summary publisher', (ctx) => {
  let app: FastifyInstance;
  let fake: FakeTelegram;
  let bot: Bot;
  let token = '';
  const ingest = async (snapshots: unknown[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      payload: snapshots as object,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const id = async (sql: string, params: unknown[]) =>
    ((await ctx.db.query<{ id: number }>(sql, params))[0]?.id ?? 0) as number;
  const projectId = (name: string) => id('select id from project where name = $1', [name]);
  const flatId = (external: string) => id('select id from flat where external_id = $1', [external]);
  const summaryId = (date: string) => id('select id from daily_summary where date = $1', [date]);
  /** Sends one message to the bot through grammY and returns its replies (the Bot API calls it made). */
  const say = async (chatId: number, text: string, chatType = 'private') => {
    const before = fake.calls.length;
    await bot.handleUpdate(fake.messageUpdate(chatId, text, chatType) as never);
    return fake.calls.slice(before).filter((c) => c.method === 'sendMessage');
  };
  const publisher = (over: Partial<ConstructorParameters<typeof Publisher>[0]> = {}) =>
    new Publisher({
      db: ctx.db,
      api: bot.api,
      channelId: CHANNEL,
      publicUrl: PUBLIC_URL,
      settleSeconds: 0,
      log: silent,
      ...over,
    });

  beforeAll(async () => {
    fake = await new FakeTelegram().start();
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent', removalGrace: 2 }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    token = (
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'analyst', password: 'secret-pass' },
      })
    ).json().token;
    await ingest(MARKET);
    bot = createBot({
      db: ctx.db,
      token: '100200:test',
      apiRoot: fake.url,
      publicUrl: PUBLIC_URL,
      log: silent,
    });
    await bot.init();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });

  describe('commands', () => {
    it('/start greets and subscribes the chat to every project', async () => {
      const [reply] = await say(501, '/start');
      expect(reply?.body.text).toContain('Здравствуйте! Я бот «Цена метра».');
      expect(reply?.body.text).toContain('Вы подписаны на сводку по всем проектам.');
      expect(await chatSubscription(ctx.db, 501)).toBe('all');
    });

    it('/help lists the commands', async () => {
      const [reply] = await say(501, '/help');
      for (const c of ['/summary', '/flat', '/subscribe', '/unsubscribe', '/watch', '/unwatch', '/help'])
        expect(reply?.body.text).toContain(c);
    });

    it('/subscribe finds a project by name or id, asks when several match, says when none does', async () => {
      const north = await projectId('Северный квартал');
      let [reply] = await say(502, '/subscribe северный квартал');
      expect(reply?.body.text).toBe(
        'Готово: Северный квартал (Пионер).\nВы подписаны на сводку по проектам: Северный квартал.',
      );
      expect(await chatSubscription(ctx.db, 502)).toEqual([north]);
      [reply] = await say(502, '/subscribe Север');
      expect(reply?.body.text).toContain('Нашлось несколько проектов по «Север». Укажите номер:');
      expect(reply?.body.text).toContain(`/subscribe ${north} — Северный квартал (Пионер)`);
      expect(reply?.body.text).toContain(
        `/subscribe ${await projectId('Северная звезда')} — Северная звезда (Самолет)`,
      );
      [reply] = await say(502, '/subscribe Несуществующий <ЖК>');
      expect(reply?.body.text).toContain('Проект «Несуществующий &lt;ЖК&gt;» не найден.');
      // a name no project can have is answered with the expected form, not a server error
      for (const bad of ['/subscribe a\u0000b', `/subscribe ${'ж'.repeat(300)}`]) {
        [reply] = await say(502, bad);
        expect(reply?.body.text).toMatch(/^Название проекта — до 200 символов/);
      }
      [reply] = await say(502, `/subscribe ${await projectId('Тихий двор')}`);
      expect(reply?.body.text).toContain('Вы подписаны на сводку по проектам: Северный квартал, Тихий двор.');
      expect(await chatSubscription(ctx.db, 502)).toHaveLength(2);
      // one project instead of all: /start's subscription becomes this project only
      await say(503, '/start');
      await say(503, '/subscribe Тихий двор');
      expect(await chatSubscription(ctx.db, 503)).toEqual([await projectId('Тихий двор')]);
      [reply] = await say(503, '/subscribe');
      expect(reply?.body.text).toBe('Вы подписаны на сводку по всем проектам.');
    });

    it('/unsubscribe ends the subscription, and says so when there is none', async () => {
      await say(504, '/start');
      let [reply] = await say(504, '/unsubscribe');
      expect(reply?.body.text).toBe('Подписка отменена. Вернуться: /subscribe.');
      expect(await chatSubscription(ctx.db, 504)).toBeNull();
      [reply] = await say(504, '/unsubscribe');
      expect(reply?.body.text).toBe('Вы и так не подписаны. Подписаться: /subscribe.');
    });

    it('/summary answers with the latest summary and a button to its page (WebApp in private, link in a group)', async () => {
      const sid = await summaryId('2026-11-02');
      let [reply] = await say(505, '/summary');
      expect(reply?.body.text).toContain('<b>Ежедневная сводка · 2 ноября 2026 г.</b>');
      expect(reply?.body.parse_mode).toBe('HTML');
      expect(reply?.body.reply_markup).toEqual({
        inline_keyboard: [[{ text: 'Открыть сводку', web_app: { url: `${PUBLIC_URL}/summary/${sid}` } }]],
      });
      [reply] = await say(-700, '/summary', 'group');
      expect(reply?.body.reply_markup).toEqual({
        inline_keyboard: [[{ text: 'Открыть сводку', url: `${PUBLIC_URL}/summary/${sid}` }]],
      });
    });

    it('/flat <id> shows the card and the last changes; a bad or unknown number is explained', async () => {
      const a = await flatId('a');
      let [reply] = await say(505, `/flat ${a}`);
      expect(reply?.body.text).toBe(
        [
          `<b>Квартира № ${a}</b> · Пионер · Северный квартал`,
          'Корпус 1, этаж 3',
          '1-комнатная, 40 м², Без отделки',
          `Цена: <b>7${NB}600${NB}000 ₽</b> (190${NB}000 ₽/м²)`,
          'В продаже с 1 ноября 2026 г.',
          '',
          '<b>Последние изменения</b>',
          `2 ноября 2026 г.: 8${NB}000${NB}000 → 7${NB}600${NB}000 ₽ (−5,00${NB}%)`,
        ].join('\n'),
      );
      expect(reply?.body.reply_markup).toEqual({
        inline_keyboard: [[{ text: 'История цены', web_app: { url: `${PUBLIC_URL}/summary/flat/${a}` } }]],
      });
      [reply] = await say(505, '/flat abc');
      expect(reply?.body.text).toBe('Укажите номер квартиры в базе, например: /flat 27734');
      [reply] = await say(505, '/flat 99999999');
      expect(reply?.body.text).toBe('Квартира 99999999 не найдена.');
    });

    it('anything else gets a helpful answer with the commands', async () => {
      const [reply] = await say(505, 'привет <бот>');
      expect(reply?.body.text).toContain('Не понимаю «привет &lt;бот&gt;».');
      expect(reply?.body.text).toContain('/summary — последняя ежедневная сводка');
      const [unknown] = await say(505, '/price');
      expect(unknown?.body.text).toContain('Не понимаю «/price».');
    });
  });

  describe('publisher', () => {
    it('waits for the summary to settle, then posts it once to the channel and to each subscriber by project', async () => {
      expect((await publisher({ settleSeconds: 3600 }).run()).planned).toBeNull();
      expect(fake.textsTo(CHANNEL).filter((t) => t.startsWith('<b>Ежедневная'))).toEqual([]);
      const sid = await summaryId('2026-11-02');
      const a = await flatId('a');
      const from = fake.delivered.length;
      const report = await publisher().run();
      expect(report).toEqual({ planned: sid, sent: 4, blocked: 0, failed: 0, pending: 0 });
      const all = [
        `<b>Ежедневная сводка · 2 ноября 2026 г.</b>\n3 проекта · новых квартир: 1 · снято: 0 · подорожали: 1 · подешевели: 1`,
        `<b>Пионер · Северный квартал</b>\nновые 1 · сняты 0 · дороже 1 · дешевле 1 · в среднем 0,00${NB}%`,
        '<b>Самолет · Северная звезда</b>\nновый проект: в продаже 1 квартира',
        'Без изменений: 1 проект.',
        `<b>Крупнейшие снижения</b>\n• Пионер · Северный квартал, № ${a}, 1-комнатная, 40 м²: 8${NB}000${NB}000 → 7${NB}600${NB}000 ₽ (−5,00${NB}%)`,
      ].join('\n\n');
      expect(fake.textsTo(CHANNEL, from)).toEqual([all]);
      expect(fake.textsTo(501, from)).toEqual([all]);
      expect(fake.textsTo(503, from)).toEqual([all]);
      // 502 follows Северный квартал and Тихий двор only
      expect(fake.textsTo(502, from)).toEqual([
        [
          `<b>Ежедневная сводка · 2 ноября 2026 г.</b>\n2 проекта · новых квартир: 1 · снято: 0 · подорожали: 1 · подешевели: 1`,
          `<b>Пионер · Северный квартал</b>\nновые 1 · сняты 0 · дороже 1 · дешевле 1 · в среднем 0,00${NB}%`,
          'Без изменений: 1 проект.',
          `<b>Крупнейшие снижения</b>\n• Пионер · Северный квартал, № ${a}, 1-комнатная, 40 м²: 8${NB}000${NB}000 → 7${NB}600${NB}000 ₽ (−5,00${NB}%)`,
        ].join('\n\n'),
      ]);
      const markup = (chat: number | string) =>
        fake.delivered.slice(from).find((c) => String(c.body.chat_id) === String(chat))?.body.reply_markup;
      expect(markup(CHANNEL)).toEqual({
        inline_keyboard: [[{ text: 'Открыть сводку', url: `${PUBLIC_URL}/summary/${sid}` }]],
      });
      expect(markup(501)).toEqual({
        inline_keyboard: [[{ text: 'Открыть сводку', web_app: { url: `${PUBLIC_URL}/summary/${sid}` } }]],
      });
      // once: a second run (another process, a restart) posts nothing
      const sent = fake.delivered.length;
      expect(await publisher().run()).toEqual({ planned: null, sent: 0, blocked: 0, failed: 0, pending: 0 });
      expect(fake.delivered.length).toBe(sent);
    });

    it('splits a digest over 4,096 characters, retries after a 429, and unsubscribes a chat that blocked the bot', async () => {
      // the next day: 30 projects with long names each change a price
      const name = (i: number) => `Жилой комплекс «${'Очень длинное название '.repeat(6)}» ${i}`;
      const day = (date: string, price: number) =>
        Array.from({ length: 30 }, (_, i) =>
          snap(date, 'Длинные имена', name(i), [flat(`z${i}`, 2, 50, price)]),
        );
      await ingest(day('2026-11-02', 10_000_000));
      await ingest(day('2026-11-03', 9_500_000));
      await say(506, '/start'); // a subscriber who then blocks the bot
      const sid = await summaryId('2026-11-03');
      let rateLimited = 0;
      const waits: number[] = [];
      fake.handler = (call) => {
        if (call.method !== 'sendMessage') return undefined;
        if (String(call.body.chat_id) === '506')
          return { error_code: 403, description: 'Forbidden: bot was blocked by the user' };
        if (String(call.body.chat_id) === CHANNEL && rateLimited++ === 0)
          return { error_code: 429, description: 'Too Many Requests: retry after 3', retry_after: 3 };
        return undefined;
      };
      const before = fake.delivered.length;
      const report = await publisher({ sleep: async (ms) => void waits.push(ms) }).run();
      fake.handler = null;
      expect(report.planned).toBe(sid);
      // the channel, 501 and 503 (every project); 502's projects had no snapshot that day: no message
      expect(report).toMatchObject({ sent: 3, blocked: 1, failed: 0, pending: 0 });
      expect(waits).toEqual([3000]);
      const channel = fake.delivered.slice(before).filter((c) => c.body.chat_id === CHANNEL);
      expect(channel.length).toBeGreaterThan(1);
      for (const c of channel) expect(String(c.body.text).length).toBeLessThanOrEqual(4096);
      const text = channel.map((c) => String(c.body.text)).join('\n\n');
      for (let i = 0; i < 30; i++) expect(text).toContain(`${name(i).replace('«', '«')}</b>`);
      // each part once; the button only under the last part
      expect(new Set(channel.map((c) => c.body.text)).size).toBe(channel.length);
      expect(channel.slice(0, -1).every((c) => c.body.reply_markup === undefined)).toBe(true);
      expect(channel.at(-1)?.body.reply_markup).toBeDefined();
      expect(fake.textsTo(506, before)).toEqual([]);
      expect(await chatSubscription(ctx.db, 506)).toBeNull();
      const [row] = await ctx.db.query<{ status: string; error: string }>(
        `select status, error from telegram_delivery where summary_id = $1 and chat_id = '506'`,
        [sid],
      );
      expect(row).toEqual({ status: 'blocked', error: 'Forbidden: bot was blocked by the user' });
    });

    it('keeps deliveries pending while Telegram is down and sends them on the next run', async () => {
      await ingest([snap('2026-11-04', 'Пионер', 'Северный квартал', [flat('a', 1, 40, 7_400_000)])]);
      const sid = await summaryId('2026-11-04');
      fake.handler = (call) =>
        call.method === 'sendMessage' ? { error_code: 502, description: 'Bad Gateway' } : undefined;
      const down = await publisher().run();
      fake.handler = null;
      expect(down).toMatchObject({ planned: sid, sent: 0, pending: 4 });
      const up = await publisher().run();
      expect(up).toEqual({ planned: null, sent: 4, blocked: 0, failed: 0, pending: 0 });
      const [post] = await ctx.db.query<{ done: boolean }>(
        'select done_at is not null as done from telegram_post where summary_id = $1',
        [sid],
      );
      expect(post?.done).toBe(true);
    });
  });

  it('two publishers at once post a new summary exactly once', async () => {
    await ingest([snap('2026-11-05', 'Пионер', 'Северный квартал', [flat('a', 1, 40, 7_300_000)])]);
    const second = ctx.kind === 'postgresql' ? await openDb({ databaseUrl: ctx.url }) : ctx.db;
    const before = fake.delivered.length;
    try {
      const reports = await Promise.all([publisher().run(), publisher({ db: second }).run()]);
      expect(reports.map((r) => r.planned).filter((p) => p !== null)).toHaveLength(1);
      expect(reports.reduce((s, r) => s + r.sent, 0)).toBe(4);
    } finally {
      if (second !== ctx.db) await second.close();
    }
    const calls = fake.delivered.slice(before).map((c) => `${c.body.chat_id}:${c.body.text}`);
    expect(calls).toHaveLength(4);
    expect(new Set(calls).size).toBe(4);
  });
});

describe('publisher killed mid-send (kill -9) and started again', () => {
  for (const kind of ['pglite', 'postgresql'] as const) {
    if (kind === 'postgresql' && !process.env.TEST_DATABASE_URL && !process.env.CI) continue;
    it(`resumes at the first unsent part without sending any part twice [${kind}]`, async () => {
      const fake = await new FakeTelegram().start();
      const where = await botDatabase(kind, 'cena-bot-');
      const { db } = where;
      try {
        // the market and eight subscribers, written by this process, which then lets go of the database
        const app = await buildApp({ db, config: loadConfig({ logLevel: 'silent', removalGrace: 2 }, {}) });
        await addUser(db, 'analyst', 'secret-pass');
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'analyst', password: 'secret-pass' },
        });
        const res = await app.inject({
          method: 'POST',
          url: '/api/ingest/snapshots',
          payload: MARKET,
          headers: { authorization: `Bearer ${login.json().token}` },
        });
        expect(res.statusCode).toBe(200);
        for (let chat = 801; chat <= 808; chat++)
          await db.query('insert into telegram_subscription (chat_id, project_id) values ($1, 0)', [chat]);
        await app.close();
        await where.handOver();

        const env = {
          ...where.env,
          TELEGRAM_BOT_TOKEN: '100200:test',
          TELEGRAM_API_ROOT: fake.url,
          TELEGRAM_CHANNEL_ID: CHANNEL,
        };
        // the fourth message never gets an answer: the process is killed while it waits
        expect((await killedWhileSending(fake, env, where.args, 4)).code).toBeNull();
        expect(fake.delivered).toHaveLength(3);

        const again = await finished(botOnce(env, where.args));
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout)).toEqual([
          { job: 'summary', planned: null, sent: 6, blocked: 0, failed: 0, pending: 0 },
          { job: 'alerts', planned: 0, sent: 0, blocked: 0, failed: 0, pending: 0 },
        ]);
        const chats = fake.delivered.map((c) => String(c.body.chat_id));
        expect(chats.sort()).toEqual(
          [CHANNEL, ...Array.from({ length: 8 }, (_, i) => String(801 + i))].sort(),
        );
        // a third run finds nothing to do
        const third = await finished(botOnce(env, where.args));
        expect(JSON.parse(third.stdout)).toEqual([
          { job: 'summary', planned: null, sent: 0, blocked: 0, failed: 0, pending: 0 },
          { job: 'alerts', planned: 0, sent: 0, blocked: 0, failed: 0, pending: 0 },
        ]);
      } finally {
        await fake.stop();
        await where.drop();
      }
    }, 120_000);
  }
});

describe('the bot in a process', () => {
  it('without TELEGRAM_BOT_TOKEN one log line says it is off', async () => {
    const db = await openDb({ memory: true });
    const lines: string[] = [];
    const log = { info: (_: object, m: string) => void lines.push(m), warn() {}, error() {} };
    try {
      expect(await startTelegram(db, loadConfig({ logLevel: 'silent' }, {}), log)).toBeNull();
      expect(lines).toEqual(['telegram: бот выключен (TELEGRAM_BOT_TOKEN не задан)']);
    } finally {
      await db.close();
    }
  });

  it('collection problems go to TELEGRAM_ADMIN_CHAT_ID when it is set, and nowhere when it is not', async () => {
    const fake = await new FakeTelegram().start();
    const db = await openDb({ memory: true });
    await migrate(db);
    const quiet = { info() {}, warn() {}, error() {} };
    const config = (admin?: string) =>
      loadConfig(
        {
          logLevel: 'silent',
          telegramBotToken: '123:abc',
          telegramApiRoot: fake.url,
          ...(admin && { telegramAdminChatId: admin }),
        },
        {},
      );
    try {
      const off = await startTelegram(db, config(), quiet);
      await off!.notifyAdmin('без адресата');
      await off!.stop();
      const on = await startTelegram(db, config('-1001'), quiet);
      await on!.notifyAdmin('Не собираются второй раз подряд: Сломан.');
      await on!.stop();
      const sent = fake.calls.filter((c) => c.method === 'sendMessage');
      expect(sent.map((c) => [c.body.chat_id, c.body.text])).toEqual([
        ['-1001', 'Не собираются второй раз подряд: Сломан.'],
      ]);
    } finally {
      await db.close();
      await fake.stop();
    }
  });

  it('`serve` with a token starts the bot, answers it, and posts the summary after an API import', async () => {
    const fake = await new FakeTelegram().start();
    const dataDir = mkdtempSync(join(tmpdir(), 'cena-serve-bot-'));
    const env = {
      ...process.env,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      TELEGRAM_BOT_TOKEN: '100200:test',
      TELEGRAM_API_ROOT: fake.url,
      TELEGRAM_CHANNEL_ID: CHANNEL,
      TELEGRAM_SETTLE_SECONDS: '0',
      PUBLIC_URL,
    };
    const add = spawnSync(
      process.execPath,
      [BIN, '--data-dir', dataDir, 'user', 'add', 'analyst', '--password', 'secret-pass-1'],
      { env },
    );
    expect(add.status, String(add.stderr)).toBe(0);
    const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', '0', '--no-demo'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = finished(child);
    try {
      const url = await new Promise<string>((done) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /http:\/\/[\d.]+:\d+/.exec(out);
          if (m) done(m[0]);
        });
      });
      await fake.waitFor((calls) => calls.some((c) => c.method === 'setMyCommands'), 30_000);
      const commands = fake.calls.find((c) => c.method === 'setMyCommands')?.body.commands as {
        command: string;
      }[];
      expect(commands.map((c) => c.command)).toEqual([
        'summary',
        'flat',
        'subscribe',
        'unsubscribe',
        'watch',
        'unwatch',
        'help',
      ]);
      fake.userSays(901, '/start');
      await fake.waitFor(() => fake.textsTo(901).length > 0, 30_000);
      expect(fake.textsTo(901)[0]).toContain('Вы подписаны на сводку по всем проектам.');

      // a day's import through the API: the digest goes out to the channel and to the subscriber
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'analyst', password: 'secret-pass-1' }),
      });
      const { token } = (await login.json()) as { token: string };
      const ingest = await fetch(`${url}/api/ingest/snapshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(MARKET),
      });
      expect(ingest.status).toBe(200);
      await fake.waitFor(() => fake.textsTo(CHANNEL).length > 0 && fake.textsTo(901).length > 1, 30_000);
      expect(fake.textsTo(CHANNEL)).toHaveLength(1);
      expect(fake.textsTo(CHANNEL)[0]).toContain('<b>Ежедневная сводка · 2 ноября 2026 г.</b>');
      expect(fake.textsTo(901)[1]).toBe(fake.textsTo(CHANNEL)[0]);
    } finally {
      child.kill('SIGTERM');
      const { code } = await exited;
      expect(code).toBe(0);
      await fake.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
