import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { audit, auditRefusal, cliActor } from '../src/db/queries/audit.js';
import { addUser, createSession } from '../src/db/queries/users.js';
import { changeUser } from '../src/use-cases/users.js';
import { describeEachDb } from './databases.js';

// DESIGN §12.1: refused attempts leave a trace in the audit log — a failed sign-in (the name tried, the
// address), a 401 or 403 on a write, a 429 — one row per address, action and minute with a count; and a
// disabled account answers a right password exactly as a wrong one.

interface Row {
  actor: string;
  address: string | null;
  action: string;
  target: string;
  count: number;
}

describeEachDb('refused attempts in the audit log', (ctx) => {
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    const boss = await addUser(ctx.db, 'boss', 'boss-password');
    const vic = await addUser(ctx.db, 'vic', 'vic-password', 'viewer');
    admin = { authorization: `Bearer ${await createSession(ctx.db, boss.id)}` };
    viewer = { authorization: `Bearer ${await createSession(ctx.db, vic.id)}` };
  });
  afterAll(async () => app?.close());

  const rows = async (action: string) =>
    ctx.db.query<Row>(
      'select actor, address, action, target, count from audit_log where action = $1 order by id',
      [action],
    );
  const login = (username: string, password: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

  it('a failed sign-in: the name tried and the address, by a guest', async () => {
    expect((await login('boss', 'wrong-password', '10.1.1.1')).statusCode).toBe(401);
    expect((await login('nobody', 'wrong-password', '10.1.1.2')).statusCode).toBe(401);
    expect(await rows('auth.login_failed')).toEqual([
      { actor: 'гость', address: '10.1.1.1', action: 'auth.login_failed', target: 'boss', count: 1 },
      { actor: 'гость', address: '10.1.1.2', action: 'auth.login_failed', target: 'nobody', count: 1 },
    ]);
    // a right password writes no refusal
    expect((await login('boss', 'boss-password', '10.1.1.3')).statusCode).toBe(200);
    expect((await rows('auth.login_failed')).length).toBe(2);
  });

  it('a 401 or 403 on a write is audited with who and what; a refused read is not', async () => {
    const guest = await app.inject({
      method: 'POST',
      url: '/api/users',
      payload: { username: 'intruder', role: 'admin' },
      remoteAddress: '10.2.2.2',
    });
    expect(guest.statusCode).toBe(401);
    // spelled as the router reads it, audited as its route
    const spelled = await app.inject({
      method: 'POST',
      url: '/%61pi/users',
      headers: viewer,
      payload: { username: 'intruder', role: 'admin' },
      remoteAddress: '10.2.2.3',
    });
    expect(spelled.statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'GET', url: '/api/users', remoteAddress: '10.2.2.4' })).statusCode,
    ).toBe(401);
    expect(await rows('access.denied')).toEqual([
      { actor: 'гость', address: '10.2.2.2', action: 'access.denied', target: 'POST /api/users', count: 1 },
      { actor: 'vic', address: '10.2.2.3', action: 'access.denied', target: 'POST /api/users', count: 1 },
    ]);
    expect(await ctx.db.query("select 1 from app_user where username = 'intruder'")).toEqual([]);
  });

  it('a flood is a row per address, action and minute with its count; a 429 is audited too', async () => {
    const before = Number(
      (await ctx.db.query<{ n: number }>('select count(*)::int as n from audit_log'))[0].n,
    );
    // 60 names from one address: 50 failures, then the address waits (429)
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await login(`guess${i}`, 'wrong-password', '10.3.3.3')).statusCode);
    expect(statuses.filter((s) => s === 401).length).toBe(50);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    const failed = (await rows('auth.login_failed')).filter((r) => r.address === '10.3.3.3');
    const throttled = (await rows('access.throttled')).filter((r) => r.address === '10.3.3.3');
    // a minute may turn during the loop: at most two rows each
    expect(failed.length).toBeLessThanOrEqual(2);
    expect(failed.reduce((n, r) => n + r.count, 0)).toBe(50);
    expect(throttled.length).toBeLessThanOrEqual(2);
    expect(throttled.reduce((n, r) => n + r.count, 0)).toBe(10);
    expect(throttled[0].target).toBe('POST /api/auth/login');
    const after = Number(
      (await ctx.db.query<{ n: number }>('select count(*)::int as n from audit_log'))[0].n,
    );
    expect(after - before).toBeLessThanOrEqual(4);
    // the admin reads the count in the log
    const page = await app.inject({
      method: 'GET',
      url: '/api/audit?action=access.throttled',
      headers: admin,
    });
    expect(page.json().rows.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(10);
  });

  it('the same minute and address add up; another minute or address is a row of its own', async () => {
    const at = new Date('2026-11-26T10:15:20Z');
    const guest = { id: null, name: 'гость', address: '10.4.4.4' };
    await auditRefusal(ctx.db, guest, 'access.denied', 'POST /api/sources', at);
    await auditRefusal(ctx.db, guest, 'access.denied', 'POST /api/users', new Date('2026-11-26T10:15:59Z'));
    await auditRefusal(ctx.db, guest, 'access.denied', 'POST /api/users', new Date('2026-11-26T10:16:00Z'));
    await auditRefusal(ctx.db, { ...guest, address: '10.4.4.5' }, 'access.denied', 'POST /api/users', at);
    const mine = (await rows('access.denied')).filter((r) => r.address?.startsWith('10.4.4.'));
    expect(mine.map((r) => [r.address, r.target, r.count])).toEqual([
      ['10.4.4.4', 'POST /api/sources', 2],
      ['10.4.4.4', 'POST /api/users', 1],
      ['10.4.4.5', 'POST /api/users', 1],
    ]);
    // the count alone may grow: anything else of the row, or a smaller count, is refused by the database
    await expect(
      ctx.db.query("update audit_log set target = 'x' where address = '10.4.4.5'"),
    ).rejects.toThrow(/не изменяются/);
    await expect(ctx.db.query("update audit_log set count = 0 where address = '10.4.4.5'")).rejects.toThrow(
      /не изменяются/,
    );
    // and a row that is not a refused attempt keeps its count of 1
    await audit(ctx.db, cliActor(), 'source.create', 'Фид');
    await expect(
      ctx.db.query("update audit_log set count = count + 1 where action = 'source.create'"),
    ).rejects.toThrow(/не изменяются/);
  });

  it('a disabled account: a right password gets the very answer of a wrong one', async () => {
    const carl = await addUser(ctx.db, 'carl', 'carl-password', 'analyst');
    await changeUser(ctx.db, cliActor(), carl.id, { disabled: true });
    const right = await login('carl', 'carl-password', '10.5.5.5');
    const wrong = await login('carl', 'wrong-password', '10.5.5.6');
    expect(right.statusCode).toBe(401);
    expect(right.body).toBe(wrong.body);
    expect(Object.keys(right.headers).sort()).toEqual(Object.keys(wrong.headers).sort());
  });
});
