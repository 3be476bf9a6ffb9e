import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser } from '../src/db/queries/users.js';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';

// A small market imported through POST /api/ingest/snapshots; G = 2.
//   11-01: a 8.0 M (40 m²), b 12.0 M (60 m²), c 6.0 M (25 m²)
//   11-02: a 7.6 M (−5 %), b 12.6 M (+5 %), c, d new 16.0 M (80 m²)
//   11-03: a, b, d (c missing once)      11-04: a, b, d (c missing twice → REMOVED)
const day = (date: string, flats: unknown[]) => snap(date, 'Пионер', 'Северный квартал', flats);
const MARKET = [
  day('2026-11-01', [flat('a', 1, 40, 8_000_000), flat('b', 2, 60, 12_000_000), flat('c', 0, 25, 6_000_000)]),
  day('2026-11-02', [
    flat('a', 1, 40, 7_600_000),
    flat('b', 2, 60, 12_600_000),
    flat('c', 0, 25, 6_000_000),
    flat('d', 3, 80, 16_000_000),
  ]),
  day('2026-11-03', [
    flat('a', 1, 40, 7_600_000),
    flat('b', 2, 60, 12_600_000),
    flat('d', 3, 80, 16_000_000),
  ]),
  day('2026-11-04', [
    flat('a', 1, 40, 7_600_000),
    flat('b', 2, 60, 12_600_000),
    flat('d', 3, 80, 16_000_000),
  ]),
];

describeEachDb('market API: ingest, discounts, flats, price changes, search, summaries, password', (ctx) => {
  let app: FastifyInstance;
  let token = '';
  const auth = () => ({ authorization: `Bearer ${token}` });
  const get = (url: string, headers = auth()) => app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown, headers: Record<string, string> = auth()) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers });
  const flatId = async (external: string) =>
    (await get(`/api/search?q=${external}`)).json().flats[0].flatId as number;

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent', removalGrace: 2 }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    token = (await post('/api/auth/login', { username: 'analyst', password: 'secret-pass' }, {})).json()
      .token;
  });
  afterAll(async () => app?.close());

  it('ingests JSON and NDJSON, all or nothing, with per-snapshot results', async () => {
    const bad = await post('/api/ingest/snapshots', [
      MARKET[0],
      { ...MARKET[1], flats: [{ id: 'x', building: '1', rooms: 1, area: -3, price: 1 }] },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/\[1\]: flats\[0\]\.area: должно быть положительным числом/);
    const [{ n }] = await ctx.db.query<{ n: number }>('select count(*)::int as n from snapshot');
    expect(n).toBe(0);

    const first = await post('/api/ingest/snapshots', MARKET.slice(0, 2));
    expect(first.statusCode).toBe(200);
    expect(first.json().map((r: { status: string }) => r.status)).toEqual(['imported', 'imported']);
    expect(first.json()[1].events).toEqual({
      NEW: 1,
      REMOVED: 0,
      PRICE_UP: 1,
      PRICE_DOWN: 1,
      AREA_CHANGED: 0,
      PROMO_STARTED: 0,
      PROMO_ENDED: 0,
    });

    const ndjson = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: { ...auth(), 'content-type': 'application/x-ndjson' },
      payload: `${MARKET.slice(1)
        .map((s) => JSON.stringify(s))
        .join('\n')}\n`,
    });
    expect(ndjson.statusCode).toBe(200);
    expect(ndjson.json().map((r: { status: string }) => r.status)).toEqual([
      'unchanged',
      'imported',
      'imported',
    ]);
    expect(ndjson.json()[2].events.REMOVED).toBe(1);
  });

  it('§4.3 discounts: per flat, largest first, and per project', async () => {
    const week = await post('/api/discount', { period: 'WEEK' });
    expect(week.statusCode).toBe(200);
    expect(week.json()).toEqual({
      date: '2026-11-04',
      rows: [
        {
          flatId: await flatId('a'),
          developerName: 'Пионер',
          projectId: expect.any(Number),
          projectName: 'Северный квартал',
          building: '1',
          rooms: 1,
          area: 40,
          floor: 3,
          facing: 'BLACK',
          refPrice: 8_000_000,
          price: 7_600_000,
          refMeterPrice: 200_000,
          meterPrice: 190_000,
          discountPercent: 5,
        },
      ],
    });
    expect((await post('/api/discount', { period: 'DAY' })).json().rows).toEqual([]);
    expect((await post('/api/discount', { period: 'WEEK', rooms: 2 })).json().rows).toEqual([]);
    expect((await post('/api/discount', { period: 'WEEK', date: '2026-11-02' })).json().rows).toHaveLength(1);
    const projects = await post('/api/discount/project', { period: 'MONTH' });
    expect(projects.json().rows).toEqual([
      expect.objectContaining({
        projectName: 'Северный квартал',
        activeFlats: 3,
        discountedFlats: 1,
        maxDiscountPercent: 5,
        avgDiscountPercent: 5,
        // (7.6 + 12.6 + 16) M / 180 m²
        avgMeterPrice: 201_111.11,
      }),
    ]);
    expect((await post('/api/discount', { period: 'WEEK', projectId: 9999 })).statusCode).toBe(404);
  });

  it('flat card: record, status, first and last seen, one history point per price change', async () => {
    const a = await get(`/api/flat?flatId=${await flatId('a')}`);
    expect(a.json()).toMatchObject({
      externalId: 'a',
      status: 'ACTIVE',
      firstSeen: '2026-11-01',
      lastSeen: '2026-11-04',
      record: { price: 7_600_000, meterPrice: 190_000, facing: 'BLACK' },
      priceHistory: [
        { date: '2026-11-01', price: 8_000_000, meterPrice: 200_000 },
        { date: '2026-11-02', price: 7_600_000, meterPrice: 190_000 },
      ],
    });
    const c = await get(`/api/summary/flat/${await flatId('c')}`, {});
    expect(c.statusCode).toBe(200);
    expect(c.json()).toMatchObject({ status: 'REMOVED', firstSeen: '2026-11-01', lastSeen: '2026-11-02' });
    expect((await get('/api/flat?flatId=99999')).statusCode).toBe(404);
  });

  it('price changes: filtered, sorted, paged on the server, and as CSV for Excel', async () => {
    const all = (await get('/api/price-changes?from=2026-11-01&to=2026-11-20')).json();
    expect(all.total).toBe(4);
    expect(all.rows.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'NEW',
      'PRICE_DOWN',
      'PRICE_UP',
      'REMOVED',
    ]);
    expect(all.rows[0].date).toBe('2026-11-04');
    const down = (await get('/api/price-changes?from=2026-11-01&to=2026-11-20&kind=PRICE_DOWN')).json();
    expect(down.rows).toEqual([
      expect.objectContaining({ oldPrice: 8_000_000, newPrice: 7_600_000, changePercent: -5 }),
    ]);
    const sorted = (
      await get('/api/price-changes?from=2026-11-01&to=2026-11-20&sort=-changePercent&pageSize=1&page=1')
    ).json();
    expect(sorted).toMatchObject({ total: 4, page: 1, pageSize: 1 });
    expect(sorted.rows[0]).toMatchObject({ kind: 'PRICE_UP', changePercent: 5 });
    const csv = await get('/api/price-changes.csv?from=2026-11-01&to=2026-11-20&sort=date');
    expect(csv.headers['content-type'], csv.body).toMatch(/text\/csv/);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFДата;Событие;Застройщик;Проект;Квартира;Корпус;Комнатность;Площадь, м²;Этаж;Отделка;Старая цена, ₽;Новая цена, ₽;Изменение, %;Прежняя площадь, м²',
    );
    expect(lines.filter(Boolean)).toHaveLength(5);
    expect(csv.body).toContain(';Подешевела;Пионер;Северный квартал;');
    expect(csv.body).toContain(';8000000;7600000;-5,00');
    // the same filter as an Excel file: the same columns, numbers as numbers, dates as dates
    const xlsx = await get('/api/price-changes.xlsx?from=2026-11-01&to=2026-11-20&sort=date');
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readSheet(xlsx.rawPayload);
    expect(sheet[0]).toEqual(lines[0].replace('\uFEFF', '').split(';'));
    expect(sheet).toHaveLength(5);
    const cheaper = sheet.find((r) => r[1] === 'Подешевела')!;
    expect(cheaper[0]).toEqual(new Date(Date.UTC(2026, 10, 2)));
    expect(cheaper.slice(10, 13)).toEqual([8_000_000, 7_600_000, -5]);
    expect(typeof cheaper[7]).toBe('number');
    // an unknown sort is a 400 before any work, as for the CSV
    expect((await get('/api/price-changes.xlsx?from=2026-11-01&to=2026-11-20&sort=nope')).statusCode).toBe(
      400,
    );
  });

  it('search finds developers, projects and flats by id or external id', async () => {
    const res = (await get('/api/search?q=север')).json();
    expect(res.projects).toEqual([
      expect.objectContaining({ name: 'Северный квартал', developerName: 'Пионер' }),
    ]);
    expect((await get('/api/search?q=пион')).json().developers).toEqual([
      { id: expect.any(Number), name: 'Пионер' },
    ]);
    const id = await flatId('d');
    expect(
      (await get(`/api/search?q=${id}`)).json().flats.map((f: { externalId: string }) => f.externalId),
    ).toContain('d');
    expect((await get('/api/search?q=%25')).json().projects).toEqual([]);
  });

  it('summaries are built by the import and open to everyone', async () => {
    const list = await get('/api/summaries', {});
    expect(list.statusCode).toBe(200);
    expect(list.json().map((s: { date: string }) => s.date)).toEqual([
      '2026-11-04',
      '2026-11-03',
      '2026-11-02',
      '2026-11-01',
    ]);
    expect(list.json()[2]).toMatchObject({
      projects: 1,
      newFlats: 1,
      removedFlats: 0,
      priceUp: 1,
      priceDown: 1,
    });
    const older = (await get('/api/summaries?before=2026-11-03&limit=1', {})).json();
    expect(older.map((s: { date: string }) => s.date)).toEqual(['2026-11-02']);
    const one = (await get(`/api/summary/${older[0].id}`, {})).json();
    expect(one.projects[0]).toMatchObject({
      projectName: 'Северный квартал',
      avgChangePercent: 0,
      priceUp: 1,
    });
    const detail = (await get(`/api/summary/${older[0].id}/project/${one.projects[0].projectId}`, {})).json();
    expect(detail.events.map((e: { kind: string }) => e.kind)).toEqual(['PRICE_DOWN', 'PRICE_UP', 'NEW']);
    expect(detail.events[0]).toMatchObject({ oldPrice: 8_000_000, newPrice: 7_600_000, changePercent: -5 });
    expect((await get('/api/summary/99999', {})).statusCode).toBe(404);
  });

  it('read responses carry an ETag of the data version: 304 while unchanged, a new tag after an import', async () => {
    const first = await get('/api/summaries', {});
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/"d/);
    expect((await get('/api/summaries', { 'if-none-match': tag })).statusCode).toBe(304);
    const [{ id: projectId }] = await ctx.db.query<{ id: number }>('select id from project');
    const stats = () =>
      app.inject({
        method: 'POST',
        url: '/api/project/stats',
        headers: { ...auth(), 'accept-encoding': 'gzip' },
        payload: { projectId, from: '2026-11-01', to: '2026-11-20' },
      });
    const s1 = await stats();
    expect(s1.statusCode).toBe(200);
    expect(s1.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(s1.rawPayload).toString()).allRoomsData.points).toHaveLength(4);
    const statsTag = s1.headers.etag as string;
    const s304 = await app.inject({
      method: 'POST',
      url: '/api/project/stats',
      headers: { ...auth(), 'if-none-match': statsTag },
      payload: { projectId, from: '2026-11-01', to: '2026-11-20' },
    });
    expect(s304.statusCode).toBe(304);
    expect(s304.body).toBe('');
    await post('/api/ingest/snapshots', day('2026-11-05', [flat('a', 1, 40, 7_500_000)]));
    expect((await get('/api/summaries', { 'if-none-match': tag })).statusCode).toBe(200);
    const s2 = await stats();
    expect(s2.headers.etag).not.toBe(statsTag);
    expect(JSON.parse(gunzipSync(s2.rawPayload).toString()).allRoomsData.points).toHaveLength(5);
  });

  it('changes the password: the current one is checked, other sessions are closed, this one stays', async () => {
    const other = (await post('/api/auth/login', { username: 'analyst', password: 'secret-pass' }, {})).json()
      .token;
    const wrong = await post('/api/auth/password', { currentPassword: 'nope', newPassword: 'new-secret-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^currentPassword:/);
    const short = await post('/api/auth/password', { currentPassword: 'secret-pass', newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/newPassword/);
    const ok = await post('/api/auth/password', {
      currentPassword: 'secret-pass',
      newPassword: 'new-secret-1',
    });
    expect(ok.statusCode).toBe(204);
    expect((await get('/api/auth/me')).statusCode).toBe(200);
    expect((await get('/api/auth/me', { authorization: `Bearer ${other}` })).statusCode).toBe(401);
    const again = await post('/api/auth/login', { username: 'analyst', password: 'new-secret-1' }, {});
    expect(again.statusCode).toBe(200);
  });
});
