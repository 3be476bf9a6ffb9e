import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { priceChangePages } from '../src/db/queries/events.js';
import { addUser } from '../src/db/queries/users.js';
import { importBatch } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { describeEachDb, freshDb } from './databases.js';
import { fingerprint } from './fingerprint.js';
import { flat, snap } from './market-fixture.js';

// Issue 13, "Found": each case as it was reported, against the real app on both databases.
const day = (date: string, flats: unknown[], project = 'Северный квартал') =>
  snap(date, 'Пионер', project, flats);
const VALID = day('2026-11-01', [flat('a', 1, 40, 8_000_000), flat('b', 2, 60, 12_000_000)]);

describeEachDb('robustness: nothing lost, never a 500, nobody locked out', (ctx) => {
  let app: FastifyInstance;
  let token = '';
  const auth = () => ({ authorization: `Bearer ${token}` });
  const get = (url: string, headers: Record<string, string> = auth()) =>
    app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown, headers: Record<string, string> = auth()) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers });
  const ingest = (payload: unknown) => post('/api/ingest/snapshots', payload);
  const expectRefused = async (
    res: Awaited<ReturnType<typeof get>>,
    status: number,
    field: string | RegExp,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json();
    if (typeof field === 'string') expect(body.message).toContain(field);
    else expect(body.message).toMatch(field);
    expect(body.code).toMatch(/^[A-Z_]+$/);
  };

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    await addUser(ctx.db, 'victim', 'victim-pass');
    token = (await post('/api/auth/login', { username: 'analyst', password: 'secret-pass' }, {})).json()
      .token;
  });
  afterAll(async () => app?.close());

  it('1. a batch is all-or-nothing: a bad second snapshot leaves the first unapplied', async () => {
    const before = await fingerprint(ctx.db);
    const nul = { ...day('2026-11-02', [flat('a', 1, 40, 8_000_000)]), project: 'Север\u0000ный' };
    await expectRefused(await ingest([VALID, nul]), 400, /\[1\][.:] ?project/);
    const ancient = day('0000-01-01', [flat('a', 1, 40, 8_000_000)]);
    await expectRefused(await ingest([VALID, ancient]), 400, '[1]: date');
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('1. a failure while applying the second snapshot rolls back the first (API and CLI batch)', async () => {
    const before = await fingerprint(ctx.db);
    // a real fault in the database: the second snapshot's row cannot be written
    await ctx.db.exec(`
      create or replace function refuse_snapshot() returns trigger language plpgsql as $$
      begin if new.date = '2026-11-02' then raise exception 'disk says no'; end if; return new; end $$;
      create trigger refuse_snapshot before insert on snapshot for each row execute function refuse_snapshot();`);
    try {
      const second = day('2026-11-02', [flat('a', 1, 40, 7_900_000)]);
      const res = await ingest([VALID, second]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'внутренняя ошибка сервера', code: 'INTERNAL_ERROR' });
      expect(await fingerprint(ctx.db)).toEqual(before);

      const importer = new Importer(ctx.db, 2);
      const read = (raw: unknown) =>
        async function* () {
          yield { snapshot: validateSnapshot(raw, { file: 'cli.json' }) };
        };
      await expect(importBatch(importer, [read(VALID), read(second)])).rejects.toThrow('disk says no');
      expect(await fingerprint(ctx.db)).toEqual(before);
    } finally {
      await ctx.db.exec('drop trigger refuse_snapshot on snapshot; drop function refuse_snapshot();');
    }
    // the same importer (its models were dropped with the rollback) applies the batch whole afterwards
    const ok = await ingest([VALID, day('2026-11-02', [flat('a', 1, 40, 7_900_000)])]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()[1].events.PRICE_DOWN).toBe(1);
  });

  it('2. areas, prices and prices per m² outside the sane bands are refused, naming the field', async () => {
    const before = await fingerprint(ctx.db);
    const cases: [unknown, string][] = [
      [flat('x', 1, 1e-9, 8_000_000), 'flats[0].area'],
      [flat('x', 1, 0.004, 8_000_000), 'flats[0].area'],
      [flat('x', 1, 0.5, 80_000), 'flats[0].area'],
      [flat('x', 1, 20_000, 8_000_000_000), 'flats[0].area'],
      [flat('x', 1, 40, 5_000), 'flats[0].price'],
      [flat('x', 1, 40, 200_000_000_000), 'flats[0].price'],
      [flat('x', 1, 40, 100_000), 'flats[0].price: цена м²'],
      [flat('x', 1, 40, 4_000_000_000), 'flats[0].price: цена м²'],
      [{ ...flat('x', 1, 40, 8_000_000), basePrice: 1 }, 'flats[0].basePrice'],
      [{ ...flat('x', 1, 40, 8_000_000), settlementDate: '9999-12-31' }, 'flats[0].settlementDate'],
      [{ ...flat('x', 1, 40, 8_000_000), settlementDate: '1200' }, 'flats[0].settlementDate'],
    ];
    for (const [f, field] of cases) await expectRefused(await ingest(day('2026-11-05', [f])), 400, field);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('3. snapshot dates lie between 2000-01-01 and tomorrow; query dates the same, as a 400', async () => {
    const before = await fingerprint(ctx.db);
    for (const date of ['9999-12-31', '0000-01-01', '1999-12-31', '2026-02-30'])
      await expectRefused(await ingest(day(date, [flat('a', 1, 40, 8_000_000)])), 400, 'date');
    expect(await fingerprint(ctx.db)).toEqual(before);
    await expectRefused(await get('/api/price-changes?from=0000-01-01&to=2026-11-01'), 400, 'from');
    await expectRefused(await get('/api/price-changes.csv?from=2026-01-01&to=9999-12-31'), 400, 'to');
    await expectRefused(await get('/api/summaries?before=0000-01-01', {}), 400, 'before');
    await expectRefused(
      await post('/api/project/stats', { projectId: 1, from: '2026-01-01', to: '9999-12-31' }),
      400,
      'to',
    );
    await expectRefused(await post('/api/discount', { period: 'DAY', date: '0000-01-01' }), 400, 'date');
    const health = (await get('/api/health', {})).json();
    expect(health.lastSnapshotDate).not.toBe('9999-12-31');
  });

  it('4. NUL and control characters, deep nesting: a 400 naming the place, never a 500', async () => {
    const before = await fingerprint(ctx.db);
    await expectRefused(await get('/api/search?q=%00'), 400, 'q');
    await expectRefused(await get('/api/search?q=a%01b'), 400, 'q');
    await expectRefused(await get('/api/summary/%00', {}), 400, 'адрес запроса');
    await expectRefused(await get('/api/search?q=%E0%A4%A'), 400, 'кодировка');
    await expectRefused(
      await post('/api/auth/login', { username: 'ana\u0000lyst', password: 'secret-pass' }, {}),
      400,
      'username',
    );
    const nested = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '['.repeat(100_000) + ']'.repeat(100_000),
    });
    await expectRefused(nested, 400, 'вложенность');
    const deepName = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify(VALID).replace(
        '"Северный квартал"',
        `${'['.repeat(5_000)}"x"${']'.repeat(5_000)}`,
      ),
    });
    await expectRefused(deepName, 400, 'project');
    await expectRefused(await ingest({ ...VALID, project: { name: 'x' } }), 400, 'project');
    const ndjson = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: { ...auth(), 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify(VALID)}\n${JSON.stringify({ ...VALID, developer: 'П\u0007' })}\n`,
    });
    await expectRefused(ndjson, 400, 'строка 2');
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('5. CSV cells that Excel would run as formulas are defused; negative numbers stay numbers', async () => {
    const evil = snap('2026-11-10', '+cmd|calc', '=HYPERLINK("http://x","y")', [
      { ...flat('a', 1, 40, 8_000_000), building: '@SUM(1)' },
    ]);
    const later = { ...evil, date: '2026-11-11', flats: [{ ...evil.flats[0], price: 7_600_000 }] };
    expect((await ingest([evil, later])).statusCode).toBe(200);
    const csv = await get('/api/price-changes.csv?from=2026-11-10&to=2026-11-11');
    expect(csv.statusCode).toBe(200);
    const line = csv.body.split('\r\n').find((l) => l.includes('HYPERLINK'))!;
    const cells = line.split(';');
    expect(cells).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(cells).toContain("'+cmd|calc");
    expect(cells).toContain("'@SUM(1)");
    // the change % is the column before the old area (empty for a price change)
    expect(cells.slice(-2)).toEqual(['-5,00', '']);
  });

  it('6. the CSV holds every row of the range, in the list order, streamed page by page', async () => {
    const many = Array.from({ length: 2_500 }, (_, i) =>
      flat(`m${i}`, i % 4, 30 + (i % 50), 6_000_000 + i * 1_000),
    );
    const first = day('2026-10-01', many.slice(0, 1), 'Большой');
    const second = day('2026-10-02', many, 'Большой');
    const third = day(
      '2026-10-03',
      many.map((f, i) => ({ ...f, price: f.price + (i % 3 === 0 ? 50_000 : i % 3 === 1 ? -30_000 : 0) })),
      'Большой',
    );
    expect((await ingest([first, second, third])).statusCode).toBe(200);
    for (const sort of ['date', '-date', 'changePercent', '-changePercent', 'newPrice', '-newPrice']) {
      const range = `from=2026-10-01&to=2026-10-03&sort=${sort}`;
      const listed: number[] = [];
      for (let page = 1; ; page++) {
        const res = (await get(`/api/price-changes?${range}&pageSize=500&page=${page}`)).json();
        listed.push(...res.rows.map((r: { flatId: number }) => r.flatId));
        if (listed.length >= res.total) break;
      }
      expect(listed.length).toBeGreaterThan(2_000 * 2);
      const csv = await get(`/api/price-changes.csv?${range}`);
      expect(csv.statusCode).toBe(200);
      const rows = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1);
      expect(
        rows.map((r) => Number(r.split(';')[4])),
        sort,
      ).toEqual(listed);
    }
  });

  it('6. an export lets other requests in between its pages (the embedded database runs in this thread)', async () => {
    // the CSV's pages (test 6's 2,500-flat days): on PGlite short ones, and the loop turns between them, so a
    // health check waits for one short query, not for the run of them (bench: p99 160 → 35 ms)
    const limit = ctx.db.kind === 'pglite' ? 100 : 500;
    let turned = 0;
    let pages = 0;
    for await (const page of priceChangePages(
      ctx.db,
      { from: '2026-10-01', to: '2026-10-03', sort: '-date' },
      31,
    )) {
      expect(page.length).toBeLessThanOrEqual(limit);
      if (pages > 0) expect(turned, `before page ${pages + 1}`).toBe(pages);
      pages++;
      // a request arriving now is served before the next page is read
      setImmediate(() => turned++);
    }
    expect(pages).toBeGreaterThan(2_000 / limit);
  });

  it('6. without from/to the list and its CSV cover the last 30 days of data', async () => {
    const res = await get('/api/price-changes');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as { date: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const [{ last }] = await ctx.db.query<{ last: string }>('select max(day)::text as last from flat_event');
    expect(rows[0].date).toBe(last);
    expect(rows.every((r) => r.date > '2026-10-12')).toBe(true);
    const csv = await get('/api/price-changes.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain(`-${last}.csv`);
  });

  it('7. failures lock the (address, account) pair, not the account elsewhere nor other accounts', async () => {
    const login = (username: string, password: string, remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
        remoteAddress,
      });
    for (let i = 0; i < 10; i++) expect((await login('victim', 'wrong', '10.0.0.66')).statusCode).toBe(401);
    expect((await login('victim', 'victim-pass', '10.0.0.66')).statusCode).toBe(429);
    // the owner, from another address, signs in; the attacker's address may still sign in as someone else
    expect((await login('victim', 'victim-pass', '10.0.0.7')).statusCode).toBe(200);
    expect((await login('analyst', 'secret-pass', '10.0.0.66')).statusCode).toBe(200);
    // guessing many accounts from one address hits the address's higher ceiling
    for (let i = 0; i < 50; i++) await login(`user${i}`, 'wrong', '10.0.0.99');
    expect((await login('analyst', 'secret-pass', '10.0.0.99')).statusCode).toBe(429);
  });

  it('7. wrong current passwords of a password change count the same way', async () => {
    const change = (currentPassword: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: auth(),
        payload: { currentPassword, newPassword: 'another-pass-1' },
        remoteAddress: '10.0.1.1',
      });
    for (let i = 0; i < 10; i++) expect((await change('wrong')).statusCode).toBe(400);
    const locked = await change('secret-pass');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('9. numbers are strict integers, names and ids bounded, every message Russian', async () => {
    for (const projectId of [true, '0x10', [1], '1e1', ' 7', '', null, 1.5])
      await expectRefused(
        await post('/api/project/stats', { projectId, from: '2026-01-01', to: '2026-02-01' }),
        400,
        'projectId',
      );
    for (const rooms of ['', false, '2a', [2]])
      await expectRefused(await post('/api/discount', { period: 'DAY', rooms }), 400, 'rooms');
    await expectRefused(await get('/api/projects?developerId=0x10'), 400, 'developerId');
    await expectRefused(await get('/api/flat?flatId=1e3'), 400, 'flatId');
    const long = 'ж'.repeat(100_000);
    await expectRefused(await ingest({ ...VALID, project: long }), 400, 'project: не длиннее 200');
    await expectRefused(await ingest(day('2026-11-01', [flat('i'.repeat(101), 1, 40, 8e6)])), 400, 'id');
    const period = await post('/api/discount', { period: 'HOUR' });
    await expectRefused(period, 400, 'period');
    expect(period.json().message).not.toMatch(/Invalid|expected|received/);
    expect(period.json().message).toMatch(/[а-я]/);
  });

  it('10. no-store on auth answers; 405 with Allow; the docs refuse traversal with a matching code', async () => {
    const login = await post('/api/auth/login', { username: 'analyst', password: 'secret-pass' }, {});
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await get('/api/auth/me')).headers['cache-control']).toBe('no-store');
    const put = await app.inject({ method: 'PUT', url: '/api/developers', headers: auth() });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    expect(put.json().code).toBe('METHOD_NOT_ALLOWED');
    const del = await app.inject({ method: 'DELETE', url: '/api/summary/1', headers: auth() });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toContain('GET');
    const traversal = await get('/api/docs/static/..%2f..%2f..%2fpackage.json', {});
    expect([403, 404]).toContain(traversal.statusCode);
    expect(traversal.json().code).toBe(traversal.statusCode === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
  });
});

/** A real listening server with short timeouts, for what only a socket can show. */
describe('8. idle, half-sent and never-finished connections are closed; parser errors are {message, code}', () => {
  let app: FastifyInstance;
  let port = 0;
  let drop: () => Promise<void>;
  const config: Partial<Config> = {
    logLevel: 'silent',
    httpIdleTimeoutSeconds: 2,
    httpRequestTimeoutSeconds: 2,
    httpHeadersTimeoutSeconds: 1,
  };

  beforeAll(async () => {
    const fresh = await freshDb('pglite');
    drop = fresh.drop;
    app = await buildApp({ db: fresh.db, config: loadConfig(config, {}) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  /** Opens a connection, writes `text`, and resolves with what came back once the server closed it. */
  const closedAfter = (text: string, withinMs: number) =>
    new Promise<{ closed: boolean; reply: string }>((resolve) => {
      const socket: Socket = connect(port, '127.0.0.1');
      let reply = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, reply });
      }, withinMs);
      socket.on('data', (d) => (reply += d));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closed: true, reply });
      });
      socket.on('error', () => {});
      socket.on('connect', () => text && socket.write(text));
    });

  it('nothing sent, half a request line, a body that never arrives: each closed within seconds', async () => {
    const [idle, half, body] = await Promise.all([
      closedAfter('', 40_000),
      closedAfter('GET /api/hea', 40_000),
      closedAfter(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
        40_000,
      ),
    ]);
    expect(idle.closed).toBe(true);
    expect(half.closed).toBe(true);
    expect(body.closed).toBe(true);
  }, 60_000);

  it('the defaults set every timeout', () => {
    const defaults = loadConfig({}, {});
    expect(defaults.httpIdleTimeoutSeconds).toBeGreaterThan(0);
    expect(defaults.httpRequestTimeoutSeconds).toBeLessThanOrEqual(300);
    expect(defaults.httpHeadersTimeoutSeconds).toBeLessThanOrEqual(defaults.httpRequestTimeoutSeconds);
    expect(app.server.requestTimeout).toBe(2000);
    expect(app.server.headersTimeout).toBe(1000);
  });

  it('headers too large → 431 and a malformed request → 400, both as {message, code}', async () => {
    const big = await closedAfter(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
      10_000,
    );
    expect(big.reply).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(big.reply.split('\r\n\r\n')[1])).toEqual({
      message: 'заголовки запроса слишком велики',
      code: 'HEADERS_TOO_LARGE',
    });
    const bad = await closedAfter('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 10_000);
    expect(bad.reply).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(bad.reply.split('\r\n\r\n')[1]).code).toBe('BAD_REQUEST');
  });
});
