import { gunzipSync } from 'node:zlib';
import { expandStatsColumns } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser } from '../src/db/queries/users.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { describeEachDb } from './databases.js';

describeEachDb('dashboard API', (ctx) => {
  let app: FastifyInstance;
  let token = '';
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    const importer = new Importer(ctx.db, 2);
    const flats = (price: number) => [
      {
        id: 'a',
        building: '10',
        rooms: 0,
        area: 25,
        price,
        finish: 'с отделкой',
        settlementDate: '4 кв. 2026',
      },
      { id: 'b', building: '2', rooms: 2, area: 50, price: 15_000_000, finish: 'WHITE' },
    ];
    for (const [date, price] of [
      ['2026-11-01', 10_000_000],
      ['2026-11-02', 9_000_000],
    ] as const)
      await importer.apply(
        validateSnapshot(
          { date, developer: 'Пионер', project: 'Северный квартал', flats: flats(price) },
          { file: 't' },
        ),
      );
    await importer.apply(
      validateSnapshot(
        { date: '2026-11-01', developer: 'Альфа', project: 'Б', flats: flats(1_000_000) },
        { file: 't' },
      ),
    );
  });
  afterAll(async () => app?.close());

  it('logs in, answers me, and refuses bad credentials with 401', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'analyst', password: 'nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toContain('неверное');
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'analyst', password: 'secret-pass' },
    });
    expect(res.statusCode).toBe(200);
    token = res.json().token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await ctx.db.query<{ token_hash: string }>('select token_hash from session');
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth() });
    expect(me.json()).toEqual({ username: 'analyst', role: 'admin', canExport: true });
  });

  it('needs a token everywhere but the open endpoints', async () => {
    for (const url of ['/api/developers', '/api/projects?developerId=1', '/api/auth/me']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({
      status: 'ok',
      database: ctx.kind,
      lastSnapshotDate: '2026-11-02',
    });
  });

  it('lists developers by name and their projects with the first and last snapshot dates', async () => {
    const devs = (await app.inject({ method: 'GET', url: '/api/developers', headers: auth() })).json();
    expect(devs.map((d: { name: string }) => d.name)).toEqual(['Альфа', 'Пионер']);
    const pioneer = devs.find((d: { name: string }) => d.name === 'Пионер');
    const projects = await app.inject({
      method: 'GET',
      url: `/api/projects?developerId=${pioneer.id}`,
      headers: auth(),
    });
    expect(projects.json()).toEqual([
      {
        id: expect.any(Number),
        name: 'Северный квартал',
        minFlatCreatedAt: '2026-11-01',
        lastSnapshotDate: '2026-11-02',
      },
    ]);
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/projects?developerId=999',
      headers: auth(),
    });
    expect(unknown.statusCode).toBe(404);
    for (const bad of ['abc', '-1', '0', '99999999999', '1;drop table developer']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/projects?developerId=${encodeURIComponent(bad)}`,
        headers: auth(),
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('developerId');
    }
  });

  it('answers project stats per §4.2', async () => {
    const [p] = await ctx.db.query<{ id: number }>("select id from project where name = 'Северный квартал'");
    const res = await app.inject({
      method: 'POST',
      url: '/api/project/stats',
      headers: auth(),
      payload: { projectId: p.id, from: '2026-10-30', to: '2026-11-05' },
    });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.allRoomsData.points.map((x: { date: string }) => x.date)).toEqual([
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(stats.allRoomsData.points[1]).toEqual({
      date: '2026-11-02',
      minMeterPrice: 300000,
      maxMeterPrice: 360000,
      avgMeterPrice: 320000,
      avgMeterPriceByFacing: { FINE_FINISHING: 360000, WHITE: 300000 },
      avgMeterPriceBySettlementDate: { '2026-12-31': 360000, null: 300000 },
      avgMeterPriceByBuilding: { '10': 360000, '2': 300000 },
      avgMeterPriceByRoomsNumber: { '0': 360000, '2': 300000 },
    });
    expect(stats.oneRoomData.points).toEqual([]);
    expect(stats.flatsCountList.map((s: { label: string }) => s.label)).toEqual([
      'Все',
      'Студии',
      '1-комн.',
      '2-комн.',
      '3+ комн.',
      'Свободные',
      'Забронированы',
    ]);
    expect(stats.flatsCountList[2].points).toEqual([
      { date: '2026-11-01', count: 0 },
      { date: '2026-11-02', count: 0 },
    ]);
    // building natural order: "2" before "10"; the studio fell 10 % in a day
    expect(stats.shortFlatSummaryList.map((r: { buildingName: string }) => r.buildingName)).toEqual([
      '2',
      '10',
    ]);
    expect(stats.shortFlatSummaryList[1]).toMatchObject({
      roomsNumber: 0,
      maxDiscountLastDay: 10,
      maxDiscount1Year: 10,
      activeFlatsCount: 1,
    });
  });

  it('answers the web’s stats in columns (§12.2): the seed’s answer, an ETag of its own, gzip, 304', async () => {
    const [p] = await ctx.db.query<{ id: number }>("select id from project where name = 'Северный квартал'");
    const payload = { projectId: p.id, from: '2026-10-30', to: '2026-11-05' };
    const ask = (headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/api/project/stats/columns',
        headers: { ...auth(), ...headers },
        payload,
      });
    const res = await ask();
    expect(res.statusCode).toBe(200);
    const columns = res.json();
    expect(columns.dates).toEqual(['2026-11-01', '2026-11-02']);
    expect(columns.allRoomsData.avgMeterPrice).toEqual([columns.allRoomsData.avgMeterPrice[0], 320000]);
    expect(columns.allRoomsData.avgMeterPriceByBuilding['10'][1]).toBe(360000);
    expect(columns.oneRoomData.avgMeterPrice).toEqual([null, null]);
    const seed = await app.inject({ method: 'POST', url: '/api/project/stats', headers: auth(), payload });
    expect(expandStatsColumns(columns)).toEqual(seed.json());
    // its own ETag (not the seed's), a 304 to it, and the same body gzipped
    const etag = res.headers.etag as string;
    expect(etag).not.toBe(seed.headers.etag);
    expect((await ask({ 'if-none-match': etag })).statusCode).toBe(304);
    const gz = await ask({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(columns);
  });

  it('rejects bad stats requests with the field named, never a 500', async () => {
    const cases: [unknown, number, string][] = [
      [{ projectId: 1, from: '2026-11-05', to: '2026-11-01' }, 400, 'to'],
      [{ projectId: 1, from: '2026-02-30', to: '2026-11-01' }, 400, 'from'],
      [{ projectId: 'x', from: '2026-01-01', to: '2026-11-01' }, 400, 'projectId'],
      [{ from: '2026-01-01', to: '2026-11-01' }, 400, 'projectId'],
      [{ projectId: 1, from: '1990-01-01', to: '2026-11-01' }, 400, 'from'],
      [{ projectId: 99999, from: '2026-01-01', to: '2026-11-01' }, 404, 'проект'],
      [{ projectId: 1, from: '2026-01-01', to: '2026-11-01', status: 'FREE' }, 400, 'status'],
    ];
    // both forms of the answer: the seed's and the web's columns
    for (const url of ['/api/project/stats', '/api/project/stats/columns']) {
      for (const [payload, status, field] of cases) {
        const res = await app.inject({ method: 'POST', url, headers: auth(), payload: payload as object });
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
        expect(res.json().message).toContain(field);
      }
      const malformed = await app.inject({
        method: 'POST',
        url,
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: '{"projectId":',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toContain('JSON');
    }
  });

  it('revokes the token on logout', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: auth() });
    expect(res.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth() })).statusCode).toBe(401);
  });

  it('rate-limits failed logins: the attempt after 10 failures in 15 minutes is a 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'limited', password: 'x' },
        remoteAddress: '10.9.9.9',
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
    // successful logins do not count: many users behind one address sign in freely
    for (let i = 0; i < 12; i++) {
      const ok = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'analyst', password: 'secret-pass' },
        remoteAddress: '10.9.9.10',
      });
      expect(ok.statusCode).toBe(200);
    }
  });
});
