import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser, createSession } from '../src/db/queries/users.js';
import { createLogger, fastifyLogging, type LogFormat, logFormatFor } from '../src/http/log.js';
import { describeEachDb } from './databases.js';

/** A server with the process's logger writing into a string, and the lines it wrote for two requests. */
async function linesOf(format: LogFormat, tty = false) {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean };
  out.isTTY = tty;
  let text = '';
  out.on('data', (d) => {
    text += d;
  });
  const app = Fastify(fastifyLogging(createLogger('info', format, out)));
  app.get('/api/health', async () => ({ ok: true }));
  app.get('/api/boom', async () => {
    throw new Error('сломалось');
  });
  await app.inject({ method: 'GET', url: '/api/health' });
  await app.inject({ method: 'GET', url: '/api/boom?x=1' });
  app.log.warn('источник не ответил');
  await app.close();
  return text.split('\n').filter(Boolean);
}

describe('logs', () => {
  it('for a person: time, level, message; one short line per request (method, path, status, ms, address)', async () => {
    const lines = await linesOf('pretty');
    const requests = lines.filter((l) => /^\[[\d:]+\] \w+: GET /.test(l));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: GET \/api\/health 200 \d+ мс · 127\.0\.0\.1$/);
    expect(requests[1]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\] ERROR: GET \/api\/boom\?x=1 500 \d+ мс · 127\.0\.0\.1$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^\[\d{2}:\d{2}:\d{2}\] WARN: источник не ответил$/));
    // no JSON and no colour codes when the stream is not a terminal
    expect(lines.some((l) => l.startsWith('{') || l.includes('\u001b['))).toBe(false);
  });

  it('for a collector: one JSON object a line, with the request fields', async () => {
    const lines = await linesOf('json');
    const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const health = objects.find((o) => o.url === '/api/health');
    expect(health).toMatchObject({
      level: 30,
      method: 'GET',
      statusCode: 200,
      msg: expect.stringMatching(/^GET \/api\/health 200 \d+ мс · 127\.0\.0\.1$/),
      ip: '127.0.0.1',
      userId: null,
    });
    expect(typeof health?.ms).toBe('number');
    expect(objects.find((o) => o.url === '/api/boom?x=1')).toMatchObject({ level: 50, statusCode: 500 });
    expect(objects.find((o) => o.msg === 'источник не ответил')).toMatchObject({ level: 40 });
  });

  it('LOG_FORMAT wins; unset, a terminal gets lines for a person and anything else JSON', () => {
    expect(logFormatFor(undefined, { isTTY: true })).toBe('pretty');
    expect(logFormatFor(undefined, { isTTY: false })).toBe('json');
    expect(logFormatFor(undefined, {})).toBe('json');
    expect(logFormatFor('json', { isTTY: true })).toBe('json');
    expect(logFormatFor('pretty', {})).toBe('pretty');
  });
});

describeEachDb('a request line names who and from where, never a token or a link (DESIGN §12.1)', (ctx) => {
  it('the user id and address of each request; an invite link and a bearer token never', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => {
      text += d;
    });
    const app = await buildApp({
      db: ctx.db,
      logger: createLogger('info', 'json', out),
      config: loadConfig({ logLevel: 'info' }, {}),
    });
    try {
      const boss = await addUser(ctx.db, 'boss', 'boss-password');
      const token = await createSession(ctx.db, boss.id);
      const auth = { authorization: `Bearer ${token}` };
      const made = await app.inject({
        method: 'POST',
        url: '/api/users',
        headers: auth,
        payload: { username: 'newcomer', role: 'viewer' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const code: string = made.json().invite.token;
      expect(code.length).toBeGreaterThan(20);
      await app.inject({ method: 'GET', url: `/api/auth/invite/${code}` });
      await app.inject({
        method: 'POST',
        url: `/api/auth/invite/${code}`,
        payload: { password: 'newcomer-pass' },
      });
      // a mistyped link that no route matches keeps its code out of the log too
      await app.inject({ method: 'GET', url: `/api/auth/invite/${code}/extra?token=${token}` });
      await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth });
      const lines = text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const me = lines.find((l) => l.url === '/api/auth/me');
      expect(me).toMatchObject({ userId: boss.id, ip: '127.0.0.1', statusCode: 200 });
      expect(String(me?.msg)).toMatch(new RegExp(`· польз\\. ${boss.id} · 127\\.0\\.0\\.1$`));
      expect(lines.filter((l) => String(l.url).startsWith('/api/auth/invite/***')).length).toBe(3);
      expect(text).not.toContain(code);
      expect(text).not.toContain(token);
    } finally {
      await app.close();
    }
  });
});
