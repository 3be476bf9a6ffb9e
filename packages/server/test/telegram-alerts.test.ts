import type { FastifyInstance } from 'fastify';
import type { Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/driver.js';
import { AlertPublisher } from '../src/telegram/alert-publisher.js';
import { createBot } from '../src/telegram/bot.js';
import { describeEachDb } from './databases.js';
import { botDatabase, botOnce, FakeTelegram, finished, killedWhileSending } from './fake-telegram.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

const PUBLIC_URL = 'https://cena.example';
const silent = { info() {}, warn() {}, error() {} };
const CHAT = 701;
// 120 lots of one project; each day of the test moves some prices
const N = 120;
const day = (date: string, price: (i: number) => number) =>
  snap(
    date,
    'Застройщик',
    'Озёрный',
    Array.from({ length: N }, (_, i) => flat(`q${i}`, 1 + (i % 3), 40 + (i % 20), price(i))),
  );
const base = (i: number) => 8_000_000 + i * 10_000;

describeEachDb('watchlist alerts in Telegram (issue 17)', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let fake: FakeTelegram;
  let bot: Bot;
  const ingest = async (snapshots: object[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: snapshots,
    });
    expect(res.statusCode, res.body).toBe(200);
    await app.computeAlerts();
  };
  const flatId = async (external: string) =>
    (await ctx.db.query<{ id: number }>('select id from flat where external_id = $1', [external]))[0]!.id;
  const say = async (chatId: number, text: string) => {
    const before = fake.calls.length;
    await bot.handleUpdate(fake.messageUpdate(chatId, text) as never);
    return fake.calls
      .slice(before)
      .filter((c) => c.method === 'sendMessage')
      .map((c) => String(c.body.text));
  };
  const publisher = (today: string, over: Partial<ConstructorParameters<typeof AlertPublisher>[0]> = {}) =>
    new AlertPublisher({
      db: ctx.db,
      api: bot.api,
      publicUrl: PUBLIC_URL,
      settleSeconds: 0,
      timeZone: 'Europe/Moscow',
      log: silent,
      today: () => today,
      ...over,
    });
  const watches = async () =>
    (await app.inject({ method: 'GET', url: '/api/watches', headers })).json() as { flatId: number | null }[];

  beforeAll(async () => {
    fake = await new FakeTelegram().start();
    ({ app, headers } = await signedInApp(ctx.db));
    await ingest([day('2026-02-01', base), day('2026-02-02', base)]);
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

  it('links a chat by the one-time code from the profile; a wrong or used code is refused', async () => {
    const q0 = await flatId('q0');
    expect((await say(CHAT, `/watch ${q0}`))[0]).toContain('Чат не привязан к аккаунту');
    expect((await say(CHAT, '/start 12345678'))[0]).toContain('Код не подошёл');
    const { code } = (await app.inject({ method: 'POST', url: '/api/profile/telegram', headers })).json();
    // a group cannot take the account, and the code stays good for the private chat
    await bot.handleUpdate(fake.messageUpdate(-100, `/start ${code}`, 'group') as never);
    expect(fake.textsTo(-100).at(-1)).toBe(
      'Аккаунт привязывается только в личном чате с ботом: отправьте код туда.',
    );
    expect((await say(CHAT, `/start ${code}`))[0]).toContain('чат привязан к аккаунту «analyst»');
    expect((await app.inject({ method: 'GET', url: '/api/profile/telegram', headers })).json().linked).toBe(
      true,
    );
    // the code works once: another chat cannot take the account with it
    expect((await say(702, `/start ${code}`))[0]).toContain('Код не подошёл');
    const [{ chat }] = await ctx.db.query<{ chat: number }>(
      "select telegram_chat_id as chat from app_user where username = 'analyst'",
    );
    expect(chat).toBe(CHAT);
  });

  it('/watch and /unwatch a flat from the chat', async () => {
    const [q0, q1] = [await flatId('q0'), await flatId('q1')];
    expect((await say(CHAT, `/watch ${q0}`))[0]).toContain(`Слежу: Квартира № ${q0}`);
    expect((await say(CHAT, `/watch ${q1}`))[0]).toContain(`Квартира № ${q1}`);
    expect((await say(CHAT, '/watch 999999'))[0]).toBe('Квартира 999999 не найдена.');
    expect((await say(CHAT, '/watch abc'))[0]).toContain('Укажите номер квартиры');
    expect((await watches()).map((w) => w.flatId).sort()).toEqual([q0, q1].sort());
    const list = (await say(CHAT, '/unwatch'))[0];
    expect(list).toContain(`/unwatch ${q0}`);
    expect(list).toContain(`/unwatch ${q1}`);
    expect((await say(CHAT, `/unwatch ${q1}`))[0]).toBe(`Больше не слежу за квартирой № ${q1}.`);
    expect((await say(CHAT, `/unwatch ${q1}`))[0]).toBe(`Квартира № ${q1} не в избранном.`);
    expect((await watches()).map((w) => w.flatId)).toEqual([q0]);
  });

  it("a viewer's chat reads but keeps no watchlist; a disabled account's chat is not linked", async () => {
    const q1 = await flatId('q1');
    await ctx.db.query("update app_user set role = 'viewer' where username = 'analyst'");
    try {
      for (const command of [`/watch ${q1}`, '/unwatch'])
        expect((await say(CHAT, command))[0], command).toContain('Нет доступа: избранное ведут аналитики');
      expect((await say(CHAT, `/flat ${q1}`))[0]).toContain(`№ ${q1}`);
      await ctx.db.query(
        "update app_user set role = 'admin', disabled_at = now() where username = 'analyst'",
      );
      expect((await say(CHAT, `/watch ${q1}`))[0]).toContain('Чат не привязан к аккаунту');
    } finally {
      await ctx.db.query("update app_user set role = 'admin', disabled_at = null where username = 'analyst'");
    }
    expect((await watches()).map((w) => w.flatId)).not.toContain(q1);
  });

  it('sends the day’s alerts in one message with a button, once a day, exactly once', async () => {
    const q0 = await flatId('q0');
    await ingest([day('2026-02-03', (i) => (i === 0 ? 7_600_000 : base(i)))]);
    const before = fake.delivered.length;
    const report = await publisher('2026-02-03').run();
    expect(report).toEqual({ planned: 1, sent: 1, blocked: 0, failed: 0, pending: 0 });
    const [message] = fake.delivered.slice(before);
    expect(String(message?.body.chat_id)).toBe(String(CHAT));
    const text = String(message?.body.text).replace(/\u00a0/g, ' ');
    expect(text).toContain('Избранное: 1 изменение');
    expect(text).toContain('3 февраля 2026 г.: Подешевела: 8 000 000 → 7 600 000 ₽ (−5,00 %)');
    expect(message?.body.reply_markup).toEqual({
      inline_keyboard: [[{ text: `Квартира № ${q0}`, web_app: { url: `${PUBLIC_URL}/summary/flat/${q0}` } }]],
    });
    // again the same day, and after another change that day: nothing more until the next day
    expect(await publisher('2026-02-03').run()).toEqual({
      planned: 0,
      sent: 0,
      blocked: 0,
      failed: 0,
      pending: 0,
    });
    await ingest([day('2026-02-04', (i) => (i === 0 ? 7_500_000 : base(i)))]);
    expect((await publisher('2026-02-03').run()).planned).toBe(0);
    expect(fake.delivered.length).toBe(before + 1);
    const next = await publisher('2026-02-04').run();
    expect(next).toMatchObject({ planned: 1, sent: 1 });
    expect(fake.textsTo(CHAT, before + 1)[0]?.replace(/\u00a0/g, ' ')).toContain('7 600 000 → 7 500 000 ₽');
  });

  it('splits a long message at 4,096 characters, and two publishers at once send it exactly once', async () => {
    // watch every lot, then cut every price
    for (let i = 1; i < N; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/watches',
        headers,
        payload: { kind: 'flat', flatId: await flatId(`q${i}`) },
      });
      expect(res.statusCode).toBe(201);
    }
    await ingest([day('2026-02-05', (i) => base(i) - 100_000)]);
    const second = ctx.kind === 'postgresql' ? await openDb({ databaseUrl: ctx.url }) : ctx.db;
    const before = fake.delivered.length;
    try {
      const reports = await Promise.all([
        publisher('2026-02-05').run(),
        publisher('2026-02-05', { db: second }).run(),
      ]);
      expect(reports.reduce((s, r) => s + r.planned, 0)).toBe(1);
      expect(reports.reduce((s, r) => s + r.sent, 0)).toBe(1);
    } finally {
      if (second !== ctx.db) await second.close();
    }
    const parts = fake.textsTo(CHAT, before);
    expect(parts.length).toBeGreaterThan(2);
    expect(new Set(parts).size).toBe(parts.length);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(4096);
    const text = parts.join('\n');
    expect(text).toContain(`Избранное: ${N} изменений`);
    for (let i = 0; i < N; i++) expect(text).toContain(`Квартира № ${await flatId(`q${i}`)} · Озёрный`);
    // every item has its button in the part its block is in
    const buttons = fake.delivered
      .slice(before)
      .flatMap((c) =>
        ((c.body.reply_markup as { inline_keyboard?: unknown[][] })?.inline_keyboard ?? []).flat(),
      );
    expect(buttons).toHaveLength(N);
  });

  it('a chat that blocked the bot is unlinked; its alerts stay on the site', async () => {
    await ingest([day('2026-02-06', (i) => base(i) - 200_000)]);
    fake.handler = (call) =>
      call.method === 'sendMessage' && String(call.body.chat_id) === String(CHAT)
        ? { error_code: 403, description: 'Forbidden: bot was blocked by the user' }
        : undefined;
    const report = await publisher('2026-02-06').run();
    fake.handler = null;
    expect(report).toMatchObject({ planned: 1, sent: 0, blocked: 1 });
    const [row] = await ctx.db.query<{ status: string; error: string }>(
      "select status, error from alert_digest where day = '2026-02-06'",
    );
    expect(row).toEqual({ status: 'blocked', error: 'Forbidden: bot was blocked by the user' });
    expect((await app.inject({ method: 'GET', url: '/api/profile/telegram', headers })).json().linked).toBe(
      false,
    );
    const alerts = (await app.inject({ method: 'GET', url: '/api/alerts?limit=500', headers })).json();
    expect(alerts.alerts.filter((a: { day: string }) => a.day === '2026-02-06')).toHaveLength(N);
    // nothing is planned for an unlinked user
    await ingest([day('2026-02-07', (i) => base(i) - 300_000)]);
    expect((await publisher('2026-02-07').run()).planned).toBe(0);
  });
});

describe('the alert publisher killed mid-send (kill -9) and started again', () => {
  for (const kind of ['pglite', 'postgresql'] as const) {
    if (kind === 'postgresql' && !process.env.TEST_DATABASE_URL && !process.env.CI) continue;
    it(`resumes at the first unsent part without sending any part twice [${kind}]`, async () => {
      const fake = await new FakeTelegram().start();
      const where = await botDatabase(kind, 'cena-alerts-');
      const { db } = where;
      try {
        // every lot watched by a linked user, then every price cut: a message of several parts
        const { app, headers } = await signedInApp(db);
        const post = async (url: string, payload: object) => {
          const res = await app.inject({ method: 'POST', url: `/api${url}`, headers, payload });
          expect(res.statusCode, res.body).toBeLessThan(300);
        };
        await post('/ingest/snapshots', [day('2026-02-01', base)]);
        for (const { id } of await db.query<{ id: number }>('select id from flat'))
          await post('/watches', { kind: 'flat', flatId: id });
        await post('/ingest/snapshots', [day('2026-02-02', (i) => base(i) - 50_000)]);
        await app.computeAlerts();
        await db.query("update app_user set telegram_chat_id = 901 where username = 'analyst'");
        await app.close();
        await where.handOver();

        const env = { ...where.env, TELEGRAM_BOT_TOKEN: '100200:test', TELEGRAM_API_ROOT: fake.url };
        // the second part never gets an answer: the process is killed while it waits
        expect((await killedWhileSending(fake, env, where.args, 2)).code).toBeNull();
        expect(fake.delivered).toHaveLength(1);

        const again = await finished(botOnce(env, where.args));
        expect(again.code, again.stderr).toBe(0);
        const [, alerts] = JSON.parse(again.stdout);
        expect(alerts.planned).toBe(0);
        const parts = fake.textsTo(901);
        expect(parts.length).toBeGreaterThan(2);
        expect(alerts.sent).toBe(1);
        expect(new Set(parts).size).toBe(parts.length);
        expect(parts.join('\n')).toContain(`Избранное: ${N} изменений`);
        // a third run finds nothing to do
        const third = await finished(botOnce(env, where.args));
        expect(JSON.parse(third.stdout)[1]).toEqual({
          job: 'alerts',
          planned: 0,
          sent: 0,
          blocked: 0,
          failed: 0,
          pending: 0,
        });
        expect(fake.textsTo(901)).toHaveLength(parts.length);
      } finally {
        await fake.stop();
        await where.drop();
      }
    }, 120_000);
  }
});
