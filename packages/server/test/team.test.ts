import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { cliActor } from '../src/db/queries/audit.js';
import { addUser } from '../src/db/queries/users.js';
import { removeUser } from '../src/use-cases/users.js';
import { describeEachDb, freshDb } from './databases.js';
import { flat, snap } from './market-fixture.js';

// A team (DESIGN §11.5): users made by admins, the last admin kept, a disabled user refused at once,
// one-time links, the sessions of one's devices, and the audit log of it all.

// sources on this machine are allowed as an operator allows an intranet host
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

describeEachDb('a team: users, sessions, the audit log', (ctx) => {
  let app: FastifyInstance;
  let admin: Record<string, string>;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const login = async (username: string, password: string, agent = 'test-agent') => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': agent },
      payload: { username, password },
    });
    return res;
  };
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    url: string,
    headers: object,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api${url}`,
      headers: headers as Record<string, string>,
      ...(payload ? { payload } : {}),
    });
  const auditRows = async () =>
    (await call('GET', '/audit?limit=500', admin)).json().rows as {
      actor: string;
      action: string;
      target: string;
      address: string | null;
      before: unknown;
      after: unknown;
    }[];

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'chief', 'chief-password');
    admin = bearer((await login('chief', 'chief-password')).json().token);
  });
  afterAll(async () => app?.close());

  it('the first user is the admin; an admin makes users with a password, each with the role asked', async () => {
    expect((await call('GET', '/auth/me', admin)).json()).toMatchObject({ username: 'chief', role: 'admin' });
    const made = await call('POST', '/users', admin, {
      username: 'anna',
      role: 'analyst',
      password: 'anna-password',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      user: { username: 'anna', role: 'analyst', disabled: false },
      invite: null,
    });
    const signed = await login('anna', 'anna-password');
    expect(signed.json()).toMatchObject({ username: 'anna', role: 'analyst' });
    // a name taken, a bad role, a short password: 4xx naming the field, nothing made
    const clash = await call('POST', '/users', admin, {
      username: 'ANNA',
      role: 'viewer',
      password: 'xxxxxxxx',
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toMatch(/^username:/);
    const badRole = await call('POST', '/users', admin, {
      username: 'bob',
      role: 'owner',
      password: 'bob-password',
    });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().message).toMatch(/role/);
    const short = await call('POST', '/users', admin, { username: 'bob', role: 'viewer', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/password/);
    const names = (await call('GET', '/users', admin)).json().map((u: { username: string }) => u.username);
    expect(names).toEqual(['anna', 'chief']);
  });

  it('a one-time link: valid once, for 24 hours, then the user signs in with the password it set', async () => {
    const made = await call('POST', '/users', admin, { username: 'vera', role: 'viewer' });
    expect(made.statusCode).toBe(201);
    const { invite, user } = made.json();
    expect(user.invitePending).toBe(true);
    const hours = (Date.parse(invite.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // no password yet: nothing signs in
    expect((await login('vera', '')).statusCode).toBe(400);
    const info = await app.inject({ method: 'GET', url: `/api/auth/invite/${invite.token}` });
    expect(info.json()).toMatchObject({ username: 'vera' });
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/auth/invite/${invite.token}`,
      payload: { password: 'vera-password' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ username: 'vera', role: 'viewer' });
    const again = await app.inject({
      method: 'POST',
      url: `/api/auth/invite/${invite.token}`,
      payload: { password: 'other-password' },
    });
    expect(again.statusCode).toBe(404);
    expect((await login('vera', 'vera-password')).statusCode).toBe(200);
    expect((await login('vera', 'other-password')).statusCode).toBe(401);
    // an expired link is refused the same way
    const late = (await call('POST', '/users', admin, { username: 'late', role: 'viewer' })).json();
    await ctx.db.query("update user_invite set expires_at = now() - interval '1 second' where user_id = $1", [
      late.user.id,
    ]);
    expect(
      (await app.inject({ method: 'GET', url: `/api/auth/invite/${late.invite.token}` })).statusCode,
    ).toBe(404);
    // the admin makes a new link: the user shows as without a password until it is used
    const lateRow = (await call('GET', '/users', admin))
      .json()
      .find((u: { id: number }) => u.id === late.user.id);
    expect(lateRow).toMatchObject({ invitePending: false, hasPassword: false });
    const fresh = await call('POST', `/users/${late.user.id}/invite`, admin);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().user).toMatchObject({ invitePending: true, hasPassword: false });
    const renewed = await app.inject({
      method: 'POST',
      url: `/api/auth/invite/${fresh.json().invite.token}`,
      payload: { password: 'late-password' },
    });
    expect(renewed.statusCode).toBe(200);
    expect((await login('late', 'late-password')).statusCode).toBe(200);
    expect((await call('POST', '/users/999999/invite', admin)).statusCode).toBe(404);
  });

  it('a disabled user is refused on the next request and cannot sign in; enabled again, they can', async () => {
    const token = (await login('anna', 'anna-password')).json().token;
    expect((await call('GET', '/developers', bearer(token))).statusCode).toBe(200);
    const anna = (await call('GET', '/users', admin))
      .json()
      .find((u: { username: string }) => u.username === 'anna');
    const off = await call('PATCH', `/users/${anna.id}`, admin, { disabled: true });
    expect(off.json()).toMatchObject({ disabled: true, sessions: 0 });
    expect((await call('GET', '/developers', bearer(token))).statusCode).toBe(401);
    // the right password gets the answer of a wrong one (DESIGN §12.1): nothing learned of the password
    const refused = await login('anna', 'anna-password');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe((await login('anna', 'not-her-password')).body);
    // no new one-time link for a disabled user, nor for an id that is not one: refused, nothing kept
    const invites = async () =>
      (await ctx.db.query<{ n: number }>('select count(*)::int as n from user_invite'))[0].n;
    const before = await invites();
    const noLink = await call('POST', `/users/${anna.id}/invite`, admin);
    expect(noLink.statusCode).toBe(409);
    expect(noLink.json().message).toMatch(/отключён/);
    const badId = await call('POST', '/users/abc/invite', admin);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/id/);
    expect(await invites()).toBe(before);
    await call('PATCH', `/users/${anna.id}`, admin, { disabled: false });
    expect((await login('anna', 'anna-password')).statusCode).toBe(200);
  });

  it('a role changed takes effect on the next request', async () => {
    const token = (await login('anna', 'anna-password')).json().token;
    expect((await call('GET', '/watches', bearer(token))).statusCode).toBe(200);
    const anna = (await call('GET', '/users', admin))
      .json()
      .find((u: { username: string }) => u.username === 'anna');
    await call('PATCH', `/users/${anna.id}`, admin, { role: 'viewer' });
    expect((await call('GET', '/watches', bearer(token))).statusCode).toBe(403);
    await call('PATCH', `/users/${anna.id}`, admin, { role: 'analyst' });
    expect((await call('GET', '/watches', bearer(token))).statusCode).toBe(200);
  });

  it('nobody removes the last admin: not by role, not by disabling, not from the CLI', async () => {
    const me = (await call('GET', '/users', admin))
      .json()
      .find((u: { username: string }) => u.username === 'chief');
    for (const patch of [{ role: 'analyst' }, { role: 'viewer' }, { disabled: true }]) {
      const res = await call('PATCH', `/users/${me.id}`, admin, patch);
      expect(res.statusCode, JSON.stringify(patch)).toBe(409);
      expect(res.json().message).toMatch(/последний администратор/);
    }
    await expect(removeUser(ctx.db, cliActor(), 'chief')).rejects.toThrow(/последний администратор/);
    expect((await call('GET', '/auth/me', admin)).json().role).toBe('admin');
    // with a second admin, the first may step down
    const anna = (await call('GET', '/users', admin))
      .json()
      .find((u: { username: string }) => u.username === 'anna');
    await call('PATCH', `/users/${anna.id}`, admin, { role: 'admin' });
    expect((await call('PATCH', `/users/${me.id}`, admin, { role: 'analyst' })).statusCode).toBe(200);
    expect((await call('GET', '/users', admin)).statusCode).toBe(403);
    const annaAdmin = bearer((await login('anna', 'anna-password')).json().token);
    expect((await call('PATCH', `/users/${me.id}`, annaAdmin, { role: 'admin' })).statusCode).toBe(200);
    expect((await call('PATCH', `/users/${anna.id}`, admin, { role: 'analyst' })).statusCode).toBe(200);
  });

  it("the profile lists one's sessions with device and address; ending one refuses its token", async () => {
    const phone = (await login('vera', 'vera-password', 'Phone Browser')).json().token;
    const laptop = (await login('vera', 'vera-password', 'Laptop Browser')).json().token;
    const list = (await call('GET', '/auth/sessions', bearer(laptop))).json();
    const devices = list.map((s: { device: string }) => s.device);
    expect(devices).toEqual(expect.arrayContaining(['Phone Browser', 'Laptop Browser']));
    expect(list.find((s: { current: boolean }) => s.current).device).toBe('Laptop Browser');
    expect(list[0].address).toBe('127.0.0.1');
    const phoneSession = list.find((s: { device: string }) => s.device === 'Phone Browser');
    expect((await call('DELETE', `/auth/sessions/${phoneSession.id}`, bearer(laptop))).statusCode).toBe(204);
    expect((await call('GET', '/developers', bearer(phone))).statusCode).toBe(401);
    expect((await call('GET', '/developers', bearer(laptop))).statusCode).toBe(200);
    // another user's session is not one's own to end
    const chiefSessions = (await call('GET', '/auth/sessions', admin)).json();
    expect((await call('DELETE', `/auth/sessions/${chiefSessions[0].id}`, bearer(laptop))).statusCode).toBe(
      404,
    );
    // an admin ends all of a user's sessions
    const vera = (await call('GET', '/users', admin))
      .json()
      .find((u: { username: string }) => u.username === 'vera');
    expect((await call('DELETE', `/users/${vera.id}/sessions`, admin)).statusCode).toBe(204);
    expect((await call('GET', '/developers', bearer(laptop))).statusCode).toBe(401);
  });

  it('the audit log has a row for each audited action: who, what, before → after, from where', async () => {
    await call(
      'POST',
      '/ingest/snapshots',
      admin,
      snap('2026-11-02', 'Аудит', 'Проверка', [flat('a', 1, 40, 8_000_000)]),
    );
    const project = (await ctx.db.query<{ id: number }>("select id from project where name = 'Проверка'"))[0]
      .id;
    await call('PUT', `/projects/${project}/place`, admin, { district: 'Тверской' });
    const source = (
      await call('POST', '/sources', admin, { name: 'Фид', kind: 'yrl', url: 'http://127.0.0.1:9/feed.xml' })
    ).json();
    const run = await call('POST', `/sources/${source.id}/run`, admin);
    expect(run.json().status).toBe('failed');
    await call('PATCH', `/sources/${source.id}`, admin, { enabled: false });
    await call('DELETE', `/sources/${source.id}`, admin);
    const rows = await auditRows();
    const actions = rows.map((r) => r.action);
    for (const action of [
      'user.create',
      'user.invite_accept',
      'user.disable',
      'user.enable',
      'user.role',
      'user.sessions_end',
      'user.invite',
      'import',
      'place.update',
      'source.create',
      'source.update',
      'source.delete',
      'collect.run',
    ])
      expect(actions, action).toContain(action);
    const disable = rows.find((r) => r.action === 'user.disable')!;
    expect(disable).toMatchObject({
      actor: 'chief',
      target: 'anna',
      address: '127.0.0.1',
      before: { role: 'analyst', disabled: false },
      after: { role: 'analyst', disabled: true },
    });
    expect(rows.find((r) => r.action === 'collect.run')).toMatchObject({
      target: 'Фид',
      after: { status: 'failed' },
    });
    const place = rows.find((r) => r.action === 'place.update')!;
    expect(place.after).toMatchObject({ district: 'Тверской' });
    const changed = rows.find((r) => r.action === 'source.update')!;
    expect(changed).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    // a refused request writes nothing
    const count = rows.length;
    await call('PATCH', '/users/999999', admin, { role: 'viewer' });
    expect((await auditRows()).length).toBe(count);
    // filters and the CSV
    const byAction = (await call('GET', '/audit?action=source.create', admin)).json();
    expect(byAction.total).toBe(1);
    expect(byAction.rows[0].target).toBe('Фид');
    expect((await call('GET', '/audit?actor=nobody', admin)).json().total).toBe(0);
    expect((await call('GET', '/audit?action=drop', admin)).statusCode).toBe(400);
    // a day that does not exist is a 400 naming the field, never a database error
    for (const bad of ['from=2026-02-30', 'to=9999-12-31', 'from=2026-13-01', 'limit=0', 'offset=-1']) {
      const res = await call('GET', `/audit?${bad}`, admin);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toContain(bad.split('=')[0]);
    }
    const csv = await call('GET', '/audit.csv?action=user.disable', admin);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Когда (МСК);Кто;Адрес;Действие;Объект;До;После;Раз');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/;chief;127\.0\.0\.1;Пользователь отключён;anna;.*;1$/);
  });

  it('no one changes the log: no route writes it, and the database refuses updates and deletes', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(method, '/audit', admin, method === 'DELETE' ? undefined : {});
      expect([404, 405], method).toContain(res.statusCode);
    }
    expect((await call('DELETE', '/audit/1', admin)).statusCode).toBe(404);
    await expect(ctx.db.query("update audit_log set actor = 'someone'")).rejects.toThrow(/не изменяются/);
    await expect(ctx.db.query('delete from audit_log')).rejects.toThrow(/не изменяются/);
    await expect(ctx.db.query('truncate audit_log')).rejects.toThrow(/не изменяются/);
    expect((await auditRows()).every((r) => r.actor !== 'someone')).toBe(true);
  });
});

describe('migration 21: existing users', () => {
  it('the first existing user becomes the admin, the rest analysts', async () => {
    const { db, drop } = await freshDb('pglite', 20);
    try {
      for (const name of ['first', 'second', 'third'])
        await db.query("insert into app_user (username, password_hash) values ($1, '')", [name]);
      const { migrate } = await import('../src/db/migrate.js');
      await migrate(db);
      const rows = await db.query<{ username: string; role: string }>(
        'select username, role from app_user order by id',
      );
      expect(rows).toEqual([
        { username: 'first', role: 'admin' },
        { username: 'second', role: 'analyst' },
        { username: 'third', role: 'analyst' },
      ]);
    } finally {
      await drop();
    }
  });
});
