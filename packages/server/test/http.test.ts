import { createHmac } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

describe('HTTP surface: OpenAPI, docs, security headers, CORS, compression', () => {
  let app: FastifyInstance;
  let withCors: FastifyInstance;
  beforeAll(async () => {
    const db = await openDb({ memory: true });
    await migrate(db);
    app = await buildApp({ db, config: loadConfig({ logLevel: 'silent' }, {}) });
    withCors = await buildApp({
      db,
      config: loadConfig({ logLevel: 'silent', corsOrigins: 'https://a.example' }, {}),
    });
  });
  afterAll(async () => {
    await app.close();
    await withCors.close();
  });

  it('serves an OpenAPI document of every endpoint, generated from the schemas, without a token', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/auth/login',
      '/api/auth/password',
      '/api/developers',
      '/api/projects',
      '/api/project/stats',
      '/api/project/stats/columns',
      '/api/discount',
      '/api/discount/project',
      '/api/flat',
      '/api/price-changes',
      '/api/price-changes.csv',
      '/api/search',
      '/api/summaries',
      '/api/summary/{id}',
      '/api/summary/{id}/project/{projectId}',
      '/api/summary/flat/{flatId}',
      '/api/ingest/snapshots',
      '/api/health',
    ])
      expect(Object.keys(doc.paths), path).toContain(path);
    expect(
      doc.paths['/api/discount'].post.requestBody.content['application/json'].schema.properties.period.enum,
    ).toEqual(['DAY', 'WEEK', 'MONTH', 'YEAR']);
  });

  it('serves the docs page locally (no CDN)', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });

  it('sends security headers with a CSP of self and no CORS by default', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const allowed = await withCors.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://a.example' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://a.example');
    const other = await withCors.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://b.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('checks the Telegram token header: a valid initData passes, anything else is a 401', async () => {
    const bot = '777:secret';
    const withBot = await buildApp({
      db: app.deps.db,
      config: loadConfig({ logLevel: 'silent', telegramBotToken: bot }, {}),
    });
    const fields = { auth_date: String(Math.floor(Date.now() / 1000) - 60), user: JSON.stringify({ id: 7 }) };
    const check = Object.entries(fields)
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('\n');
    const secret = createHmac('sha256', 'WebAppData').update(bot).digest();
    const hash = createHmac('sha256', secret).update(check).digest('hex');
    const header = (data: string) => ({ token: Buffer.from(data).toString('base64') });
    const good = new URLSearchParams({ ...fields, hash }).toString();
    expect(
      (await withBot.inject({ method: 'GET', url: '/api/summaries', headers: header(good) })).statusCode,
    ).toBe(200);
    const forged = good.replace('%22id%22%3A7', '%22id%22%3A8');
    const bad = await withBot.inject({ method: 'GET', url: '/api/summaries', headers: header(forged) });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toMatch(/^token:/);
    // a server without a bot token cannot check it: refused as well
    expect(
      (await app.inject({ method: 'GET', url: '/api/summaries', headers: header(good) })).statusCode,
    ).toBe(401);
    await withBot.close();
  });

  it('compresses large bodies with gzip or brotli', async () => {
    for (const encoding of ['gzip', 'br']) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/openapi.json',
        headers: { 'accept-encoding': encoding },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
    }
  });
});

describe('read cache: responses kept per data version', () => {
  it('answers repeated and concurrent reads with one computation, compressed or not, and an import shows at once', async () => {
    const real = await openDb({ memory: true });
    await migrate(real);
    // the real database, counting the queries that read summaries
    let summaryQueries = 0;
    let healthQueries = 0;
    const db = Object.create(real, {
      query: {
        value: (sql: string, params?: unknown[]) => {
          if (/from days s join summary_project/.test(sql)) summaryQueries++;
          if (/max\(last_snapshot_date\)/.test(sql)) healthQueries++;
          return real.query(sql, params);
        },
      },
    });
    const app = await buildApp({ db, config: loadConfig({ logLevel: 'silent' }, {}) });
    const ingest = (date: string, price: number) =>
      app.importer.apply({
        date,
        developer: 'Кэш',
        project: 'Проект',
        source: 'test',
        flats: Array.from({ length: 30 }, (_, i) => ({
          externalId: `f${i}`,
          rec: {
            building: '1',
            section: null,
            floor: 1,
            number: null,
            rooms: 1,
            area: 40,
            facing: 'BLACK' as const,
            settlementDate: null,
            price: price + i,
            basePrice: null,
            status: null,
            offer: null,
          },
        })),
      });
    try {
      // 40 days: a list long enough (over 1 KB) to be sent compressed
      for (let d = 1; d <= 40; d++)
        await ingest(new Date(Date.UTC(2026, 8, 30 + d)).toISOString().slice(0, 10), 8_000_000 - d * 1000);
      app.dataVersion.invalidate();
      const get = (encoding = 'identity') =>
        app.inject({
          method: 'GET',
          url: '/api/summaries?limit=50',
          headers: { 'accept-encoding': encoding },
        });
      const [first, ...rest] = await Promise.all(Array.from({ length: 20 }, () => get()));
      expect(first!.statusCode).toBe(200);
      for (const r of rest) expect(r.body).toBe(first!.body);
      expect(summaryQueries).toBe(1);
      const gzip = await get('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzipped(gzip.rawPayload)).toBe(first!.body);
      expect(summaryQueries).toBe(1);
      const dates = (body: string) => JSON.parse(body).map((s: { date: string }) => s.date);
      expect(dates(first!.body)).toHaveLength(40);
      expect(dates(first!.body)[0]).toBe('2026-11-09');

      // an import is a new data version: the next read computes again and shows it
      await ingest('2026-11-10', 7_900_000);
      app.dataVersion.invalidate();
      const after = await get();
      expect(dates(after.body)).toHaveLength(41);
      expect(dates(after.body)[0]).toBe('2026-11-10');
      expect(summaryQueries).toBe(2);

      // health, asked by probes every second or more often, reads the data state once per data version
      // and at most a second old (it must not queue behind long reads on the embedded database)
      const health = async () => (await app.inject({ method: 'GET', url: '/api/health' })).json();
      const states = await Promise.all(Array.from({ length: 10 }, health));
      for (const h of states) expect(h.lastSnapshotDate).toBe('2026-11-10');
      expect(healthQueries).toBe(1);
      await ingest('2026-11-11', 7_800_000);
      app.dataVersion.invalidate();
      expect((await health()).lastSnapshotDate).toBe('2026-11-11');
      expect(healthQueries).toBe(2);
      await new Promise((done) => setTimeout(done, 1_100));
      expect((await health()).lastSnapshotDate).toBe('2026-11-11');
      expect(healthQueries).toBe(3);
    } finally {
      await app.close();
      await real.close();
    }
  });
});

describe('read cache: the bytes a route writes itself', () => {
  it('keeps the market’s ranking (its own serializer’s buffer) and sends it again as is, gzip or not', async () => {
    const db = await openDb({ memory: true });
    await migrate(db);
    const { app, headers } = await signedInApp(db);
    try {
      const lists = Array.from({ length: 12 }, (_, p) =>
        snap(
          '2026-11-02',
          `Застройщик ${p % 3}`,
          `Проект ${p + 1}`,
          Array.from({ length: 5 }, (_, i) => flat(`f${i}`, 1, 40 + i, 8_000_000 + p * 10_000 + i)),
        ),
      );
      const ingest = await app.inject({
        method: 'POST',
        url: '/api/ingest/snapshots',
        headers,
        payload: lists,
      });
      expect(ingest.statusCode).toBe(200);
      // the ranking's computations counted on the real use case
      let computed = 0;
      const market = app.market.market.bind(app.market);
      app.market.market = (...args: Parameters<typeof market>) => {
        computed++;
        return market(...args);
      };
      const ask = (encoding: string, from = '2026-11-01') =>
        app.inject({
          method: 'POST',
          url: '/api/market',
          headers: { ...headers, 'accept-encoding': encoding },
          payload: { from, to: '2026-11-02', status: 'ALL', groupBy: 'city' },
        });
      const first = await ask('identity');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.json().projects).toHaveLength(12);
      const again = await ask('identity');
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.body).toBe(first.body);
      const gzip = await ask('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzipped(gzip.rawPayload)).toBe(first.body);
      expect(computed).toBe(1);
      // another period is another answer
      expect((await ask('identity', '2026-11-02')).statusCode).toBe(200);
      expect(computed).toBe(2);
    } finally {
      await app.close();
      await db.close();
    }
  });
});

function gzipped(bytes: Buffer): string {
  return gunzipSync(bytes).toString('utf8');
}
