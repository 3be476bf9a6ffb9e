import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliActor } from '../src/db/queries/audit.js';
import { addUser } from '../src/db/queries/users.js';
import { MAX_WATCHES } from '../src/db/queries/watch.js';
import { removeUser } from '../src/use-cases/users.js';
import { computeAlerts } from '../src/watch/alerts.js';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// Watchlists and alerts through the API (issue 17). One building, five lots:
//   a: 8.0 M, cut to 7.6 M on 01-03            b: gone on 01-05 (missed 01-04 and 01-05)
//   c: gone on 01-03 (missed 01-02, 01-03), back on 01-04       d: new on 01-03
//   e: 5.0 M → 5.1 M on 01-02, before anything was watched (history, not news)
// The watches are made after 01-02 is imported, so they alert from 01-03 on.
const lot = (id: string, price: number, over: object = {}) => ({
  id,
  building: 'Корпус 1',
  section: '1',
  floor: 2,
  number: id,
  rooms: 1,
  area: 40,
  price,
  ...over,
});
const a = (price: number) => lot('a', price);
const b = lot('b', 6_000_000);
const c = lot('c', 7_000_000, { rooms: 2, area: 55 });
const d = lot('d', 9_000_000, { rooms: 2, area: 60 });
const e = (price: number) => lot('e', price);
const day = (date: string, flats: object[]) => ({ date, developer: 'Избранное', project: 'Сад', flats });

describeEachDb('watchlists and alerts through the API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let other: Record<string, string> = {};
  let projectId = 0;
  const flatId = async (external: string) =>
    (await ctx.db.query<{ id: number }>('select id from flat where external_id = $1', [external]))[0]!.id;
  const ingest = async (days: object[]) => {
    const res = await app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers, payload: days });
    expect(res.statusCode, res.body).toBe(200);
    await app.computeAlerts();
  };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, as = headers) =>
    app.inject({ method, url: `/api${url}`, headers: as, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    await addUser(ctx.db, 'other', 'other-pass');
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'other', password: 'other-pass' },
    });
    other = { authorization: `Bearer ${login.json().token}` };
    await ingest([
      day('2026-01-01', [a(8_000_000), b, c, e(5_000_000)]),
      day('2026-01-02', [a(8_000_000), b, e(5_100_000)]),
    ]);
    [{ id: projectId }] = await ctx.db.query<{ id: number }>("select id from project where name = 'Сад'");
  });
  afterAll(async () => app?.close());

  it('says which field is wrong (400), and 404 for what is not there or not the user’s', async () => {
    const bad: [object, string][] = [
      [{ kind: 'house' }, 'kind'],
      [{ kind: 'flat' }, 'flatId'],
      [{ kind: 'flat', flatId: 'x' }, 'flatId'],
      [{ kind: 'flat', flatId: 1, rules: { minChangePercent: 0 } }, 'rules.minChangePercent'],
      [{ kind: 'flat', flatId: 1, rules: { removed: 'yes' } }, 'rules.removed'],
      [{ kind: 'segment', projectId, rooms: 'five' }, 'rooms'],
      [{ kind: 'segment', projectId, maxPrice: -1 }, 'maxPrice'],
      [{ kind: 'segment', projectId, finish: 'GOLD' }, 'finish'],
      [{ kind: 'segment', projectId, building: 'a\u0000b' }, 'building'],
    ];
    for (const [payload, field] of bad) {
      const res = await call('POST', '/watches', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toContain(field);
    }
    expect((await call('POST', '/watches', { kind: 'flat', flatId: 999_999 })).statusCode).toBe(404);
    expect((await call('POST', '/watches', { kind: 'segment', projectId: 999_999 })).statusCode).toBe(404);
    expect((await call('DELETE', '/watches/999999')).statusCode).toBe(404);
    expect((await call('GET', '/alerts?limit=0')).json().message).toContain('limit');
    expect((await app.inject({ method: 'GET', url: '/api/watches' })).statusCode).toBe(401);
  });

  it('computes alerts after an import by the rules, once per item and event, from the watch’s start', async () => {
    const [fa, fb, fc, fd] = [
      await flatId('a'),
      await flatId('b'),
      await flatId('c'),
      await flatId('d').catch(() => 0),
    ];
    expect(fd).toBe(0); // d is not there yet
    const watchA = await call('POST', '/watches', { kind: 'flat', flatId: fa });
    expect(watchA.statusCode, watchA.body).toBe(201);
    expect(watchA.json()).toMatchObject({
      kind: 'flat',
      flatId: fa,
      label: `Квартира № ${fa} · Сад · Корпус 1, № a`,
    });
    const watchC = (await call('POST', '/watches', { kind: 'flat', flatId: fc })).json();
    const all = (await call('POST', '/watches', { kind: 'segment', projectId, building: 'корп. 1' })).json();
    expect(all).toMatchObject({
      building: '1',
      rooms: 'all',
      rules: { fresh: true },
      label: 'Сад · Корпус 1 · все квартиры',
    });
    const capped = (
      await call('POST', '/watches', {
        kind: 'segment',
        projectId,
        rooms: 'two',
        maxPrice: 8_000_000,
        rules: { price: false },
      })
    ).json();
    // another user's item is out of reach
    expect((await call('DELETE', `/watches/${watchC.id}`, undefined, other)).statusCode).toBe(404);
    expect((await call('GET', '/watches', undefined, other)).json()).toEqual([]);

    await ingest([
      day('2026-01-03', [a(7_600_000), b, d, e(5_100_000)]),
      day('2026-01-04', [a(7_600_000), c, d, e(5_100_000)]),
      day('2026-01-05', [a(7_600_000), c, d, e(5_100_000)]),
    ]);
    const fd2 = await flatId('d');
    const list = (await call('GET', '/alerts?limit=100')).json();
    const got = list.alerts
      .map((x: { watchId: number; day: string; flatId: number; kind: string }) => [
        x.watchId,
        x.day,
        x.flatId,
        x.kind,
      ])
      .sort((x: string[], y: string[]) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    const want = [
      [watchA.json().id, '2026-01-03', fa, 'PRICE_DOWN'],
      [watchC.id, '2026-01-03', fc, 'REMOVED'],
      [watchC.id, '2026-01-04', fc, 'BACK'],
      [all.id, '2026-01-03', fa, 'PRICE_DOWN'],
      [all.id, '2026-01-03', fc, 'REMOVED'],
      [all.id, '2026-01-03', fd2, 'NEW'],
      [all.id, '2026-01-04', fc, 'BACK'],
      [all.id, '2026-01-05', fb, 'REMOVED'],
      // two rooms under 8 M, no price rule: c gone and back; d (9 M) is over the cap
      [capped.id, '2026-01-03', fc, 'REMOVED'],
      [capped.id, '2026-01-04', fc, 'BACK'],
    ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(got).toEqual(want);
    expect(list.unread).toBe(want.length);
    const cut = list.alerts.find(
      (x: { kind: string; watchId: number }) => x.kind === 'PRICE_DOWN' && x.watchId === watchA.json().id,
    );
    expect(cut).toMatchObject({ oldPrice: 8_000_000, newPrice: 7_600_000, projectName: 'Сад', read: false });
    expect(cut.changePercent).toBeCloseTo(-5, 9);

    // computed again (another instance, a rebuild, the same list imported twice): nothing new
    await ctx.db.query('delete from alert_cursor');
    expect((await computeAlerts(ctx.db)).alerts).toBe(0);
    await ingest([day('2026-01-05', [a(7_600_000), c, d, e(5_100_000)])]);
    expect((await call('GET', '/alerts?limit=100')).json().alerts).toHaveLength(want.length);

    // the list of watched items with the latest change and a count
    const watches = (await call('GET', '/watches')).json();
    expect(watches.map((w: { id: number }) => w.id)).toEqual([
      capped.id,
      all.id,
      watchC.id,
      watchA.json().id,
    ]);
    expect(watches.find((w: { id: number }) => w.id === watchC.id)).toMatchObject({
      alerts: 2,
      latest: { kind: 'BACK', day: '2026-01-04' },
    });
    expect(watches.find((w: { id: number }) => w.id === all.id).alerts).toBe(5);
  });

  it('marks alerts read (some, then all), changes rules, and drops an item with its alerts', async () => {
    const { alerts, unread } = (await call('GET', '/alerts?unread=1&limit=100')).json();
    expect(unread).toBeGreaterThan(2);
    const read = await call('POST', '/alerts/read', { ids: [alerts[0].id, alerts[1].id] });
    expect(read.json()).toEqual({ unread: unread - 2 });
    expect((await call('GET', '/alerts?unread=1&limit=100')).json().alerts).toHaveLength(unread - 2);
    // another user's ids change nothing
    expect((await call('POST', '/alerts/read', {}, other)).json()).toEqual({ unread: 0 });
    expect((await call('POST', '/alerts/read', {})).json()).toEqual({ unread: 0 });

    const [first] = (await call('GET', '/watches')).json();
    const patched = await call('PATCH', `/watches/${first.id}`, {
      rules: { price: true, minChangePercent: 3, removed: false, back: false, fresh: false, promo: true },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().rules).toEqual({
      price: true,
      minChangePercent: 3,
      removed: false,
      back: false,
      fresh: false,
      promo: true,
    });
    expect(
      (await call('PATCH', `/watches/${first.id}`, { rules: { promo: 'да' } })).json().message,
    ).toContain('rules.promo');
    expect(
      (await call('PATCH', `/watches/${first.id}`, { rules: { minChangePercent: 500 } })).json().message,
    ).toContain('rules.minChangePercent');
    expect((await call('DELETE', `/watches/${first.id}`)).statusCode).toBe(204);
    const [{ left }] = await ctx.db.query<{ left: number }>(
      'select count(*)::int as left from watch_alert where watch_id = $1',
      [first.id],
    );
    expect(left).toBe(0);
    // watching a flat again updates the item instead of adding one
    const fa = await flatId('a');
    const again = await call('POST', '/watches', { kind: 'flat', flatId: fa, rules: { removed: false } });
    expect(again.statusCode).toBe(201);
    expect(
      (await call('GET', '/watches')).json().filter((w: { flatId: number }) => w.flatId === fa),
    ).toHaveLength(1);
  });

  it('gives a one-time Telegram code on the profile, linked once used', async () => {
    expect((await call('GET', '/profile/telegram')).json()).toMatchObject({ linked: false, code: null });
    const made = (await call('POST', '/profile/telegram')).json();
    expect(made.code).toMatch(/^\d{8}$/);
    expect(new Date(made.expiresAt).getTime()).toBeGreaterThan(Date.now());
    // a newer code replaces it
    const newer = (await call('POST', '/profile/telegram')).json();
    const codes = await ctx.db.query<{ code: string }>('select code from telegram_link_code');
    expect(codes.map((r) => r.code)).toEqual([newer.code]);
  });

  it('refuses a watched item past the limit with a 409 that says so, adding nothing', async () => {
    const [{ id: userId }] = await ctx.db.query<{ id: number }>(
      "select id from app_user where username = 'analyst'",
    );
    const [{ n }] = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from watch where user_id = $1',
      [userId],
    );
    await ctx.db.query(
      `insert into watch (user_id, kind, project_id, rooms, rules, since)
       select $1, 'segment', $2, 'all', '{}', '2026-01-01' from generate_series(1, $3::int)`,
      [userId, projectId, MAX_WATCHES - n],
    );
    const res = await call('POST', '/watches', { kind: 'segment', projectId });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`можно следить не больше чем за ${MAX_WATCHES} объектами`);
    const [{ after }] = await ctx.db.query<{ after: number }>(
      'select count(*)::int as after from watch where user_id = $1',
      [userId],
    );
    expect(after).toBe(MAX_WATCHES);
    await ctx.db.query("delete from watch where user_id = $1 and since = '2026-01-01'", [userId]);
  });

  it('a user removed takes their watched items and alerts along', async () => {
    const count = async (table: string) =>
      (await ctx.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
    expect(await count('watch_alert')).toBeGreaterThan(0);
    // the first user is the admin: another admin first, as the last one cannot be removed
    await ctx.db.query("update app_user set role = 'admin' where username = 'other'");
    await removeUser(ctx.db, cliActor(), 'analyst');
    expect([await count('watch'), await count('watch_alert'), await count('telegram_link_code')]).toEqual([
      0, 0, 0,
    ]);
  });
});
