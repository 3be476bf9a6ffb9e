import {
  COMPARE_METRICS,
  compareResponseSchema,
  marketPaceResponseSchema,
  marketResponseSchema,
  PRICE_CLASSES,
} from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { keptData } from './kept-data.js';
import { signedInApp } from './signed-in-app.js';

// POST /api/market/pace, /api/market and /api/compare (DESIGN §10.5–10.6 over unions of projects).
//   «Альфа» «Восход» (A1): 01-01 f1 f2 f3; 01-03 f1 (+10 %) f2; 01-05 f1 f2 → f3 REMOVED on 01-05
//   «Альфа» «Закат»  (A2): 01-02 g1 g2; 01-04 g1 g2 g3 (NEW) — no data after 01-04, its last list
//   «Бета» «Премьер» (B1): 01-01 h1; 01-05 h1 (32 M for 40 m²: 800,000 ₽/m², premium)
const lot = (id: string, price: number, area = 40) => ({ id, building: '1', rooms: 1, area, price });
const list = (date: string, developer: string, project: string, flats: object[]) => ({
  date,
  developer,
  project,
  flats,
});
const MARKET = [
  list('2026-01-01', 'Альфа', 'Восход', [lot('f1', 8_000_000), lot('f2', 8_000_000), lot('f3', 8_000_000)]),
  list('2026-01-03', 'Альфа', 'Восход', [lot('f1', 8_800_000), lot('f2', 8_000_000)]),
  list('2026-01-05', 'Альфа', 'Восход', [lot('f1', 8_800_000), lot('f2', 8_000_000)]),
  list('2026-01-02', 'Альфа', 'Закат', [lot('g1', 10_000_000, 50), lot('g2', 10_000_000, 50)]),
  list('2026-01-04', 'Альфа', 'Закат', [
    lot('g1', 10_000_000, 50),
    lot('g2', 10_000_000, 50),
    lot('g3', 10_000_000, 50),
  ]),
  list('2026-01-01', 'Бета', 'Премьер', [lot('h1', 32_000_000)]),
  list('2026-01-05', 'Бета', 'Премьер', [lot('h1', 32_000_000)]),
];
const PERIOD = { from: '2026-01-01', to: '2026-01-05' };

describeEachDb('a developer, the market and a comparison through the API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const developers: Record<string, number> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const res = await app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers, payload: MARKET });
    expect(res.statusCode, res.body).toBe(200);
    for (const p of await ctx.db.query<{ id: number; name: string }>('select id, name from project'))
      ids[p.name] = p.id;
    for (const d of await ctx.db.query<{ id: number; name: string }>('select id, name from developer'))
      developers[d.name] = d.id;
  });
  afterAll(async () => app?.close());
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });

  it("a developer's pace is recomputed over the union of its projects' flats", async () => {
    const res = await post('/api/market/pace', { developerId: developers.Альфа, ...PERIOD });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.projects).toBe(2);
    expect(body.points.map((p: { stock: number }) => p.stock)).toEqual([3, 5, 4, 5, 2]);
    expect(body.last).toEqual({
      date: '2026-01-05',
      // «Закат» has no data after its last list; its NEW lot of 01-04 is in the window all the same
      stock: 2,
      new7: 1,
      new30: 1,
      gone7: 1,
      gone30: 1,
      // no data on D − 30 (2025-12-06): the window is not whole (§10.5, amended 2026-11-24)
      absorption: null,
      monthsOfSupply: 2,
      medianDaysOnMarket: 4,
      medianStockAge: 4,
      // 01-03: f1 +10 % among 4 same flats (f1 f2 g1 g2): 1.1^(1/4)
      index: 102.41,
      avgMeterPrice: 210_000,
    });
    // the whole market: «Премьер» joins the union
    const market = (await post('/api/market/pace', PERIOD)).json();
    expect(market.projects).toBe(3);
    expect(market.last).toMatchObject({ stock: 3, gone30: 1, avgMeterPrice: 406_666.67 });
    // by rooms: no studios anywhere
    const studios = (await post('/api/market/pace', { ...PERIOD, rooms: 'studio' })).json();
    expect(studios.last).toMatchObject({ stock: 0, avgMeterPrice: null });
    // by class (§12.3, a project's class on its latest list): «Премьер» alone is premium, and the classes
    // part the market — each day's stock of the market is the sum of the classes'
    const byClass = await Promise.all(
      PRICE_CLASSES.map(async (priceClass) => {
        const res = await post('/api/market/pace', { ...PERIOD, priceClass });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { projects: number; points: { date: string; stock: number }[] };
      }),
    );
    const premium = byClass[PRICE_CLASSES.indexOf('premium')];
    expect(premium.projects).toBe(1);
    expect(premium.points.at(-1)).toMatchObject({ stock: 1, avgMeterPrice: 800_000 });
    expect(byClass.reduce((sum, c) => sum + c.projects, 0)).toBe(3);
    for (const { date, stock } of market.points)
      expect(
        byClass.reduce((sum, c) => sum + (c.points.find((p) => p.date === date)?.stock ?? 0), 0),
        date,
      ).toBe(stock);
  });

  it('the market ranks projects and developers with the last day’s figures; filters by developer and class', async () => {
    const res = await post('/api/market', PERIOD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    // the bytes are the response's JSON (the route writes them row by row)
    expect(res.body).toBe(JSON.stringify(body));
    // written without the runtime check of the response schema (the route's own serializer): held to it here
    expect(marketResponseSchema.strict().parse(body)).toEqual(body);
    const byName = Object.fromEntries(body.projects.map((r: { name: string }) => [r.name, r]));
    expect(byName.Восход).toMatchObject({
      date: '2026-01-05',
      stock: 2,
      gone30: 1,
      absorption: null, // no data 30 days before: the window is not whole (§10.5)
      avgMeterPrice: 210_000,
      // no region: the other regions' price bands (210,000 is business there; it would be economy in Moscow)
      priceClass: 'business',
      classOrigin: 'price',
      indexChange: 4.88,
    });
    expect(byName.Закат).toMatchObject({
      date: '2026-01-04',
      stock: 3,
      new30: 1,
      absorption: null,
      indexChange: 0,
    });
    expect(byName.Премьер).toMatchObject({ stock: 1, avgMeterPrice: 800_000, priceClass: 'premium' });
    const alpha = body.developers.find((r: { name: string }) => r.name === 'Альфа');
    expect(alpha).toMatchObject({ projects: 2, stock: 2, absorption: null, indexChange: 2.41 });
    expect(body.total).toMatchObject({ projects: 3, stock: 3 });

    const premium = (await post('/api/market', { ...PERIOD, priceClass: 'premium' })).json();
    expect(premium.projects.map((r: { name: string }) => r.name)).toEqual(['Премьер']);
    expect(premium.developers.map((r: { name: string }) => r.name)).toEqual(['Бета']);
    const beta = (await post('/api/market', { ...PERIOD, developerId: developers.Бета })).json();
    expect(beta.projects.map((r: { name: string }) => r.name)).toEqual(['Премьер']);
    // a period before every list: nothing to rank
    const empty = (await post('/api/market', { from: '2025-01-01', to: '2025-02-01' })).json();
    expect(empty).toMatchObject({ projects: [], developers: [], total: null });
  });

  it('compare: one series per project for a metric, in the order asked', async () => {
    const res = await post('/api/compare', {
      projectIds: [ids.Закат, ids.Восход],
      ...PERIOD,
      metric: 'stock',
    });
    expect(res.statusCode, res.body).toBe(200);
    const series = res.json().series;
    expect(series.map((s: { projectName: string }) => s.projectName)).toEqual(['Закат', 'Восход']);
    expect(series[0].points).toEqual([
      { date: '2026-01-02', value: 2 },
      { date: '2026-01-03', value: 2 },
      { date: '2026-01-04', value: 3 },
    ]);
    expect(series[1].points.map((p: { value: number }) => p.value)).toEqual([3, 3, 2, 2, 2]);
    const index = (
      await post('/api/compare', { projectIds: [ids.Восход], ...PERIOD, metric: 'index' })
    ).json();
    expect(index.series[0].points.at(-1)).toEqual({ date: '2026-01-05', value: 104.88 });
  });

  it('every market pace and comparison answer is the response schema’s output, byte for byte (written as made)', async () => {
    let answers = 0;
    const periods = [
      PERIOD,
      { from: '2025-12-01', to: '2026-01-03' },
      { from: '2020-01-01', to: '2020-01-31' },
    ];
    for (const period of periods) {
      for (const scope of [{}, { developerId: developers.Альфа }, { priceClass: 'comfort' }])
        for (const extra of [{}, { rooms: 'two' }, { status: 'AVAILABLE' }]) {
          const body = { ...scope, ...period, ...extra };
          const res = await post('/api/market/pace', body);
          expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(200);
          expect(res.body).toBe(JSON.stringify(marketPaceResponseSchema.parse(res.json())));
          answers++;
        }
      for (const metric of COMPARE_METRICS) {
        const body = { projectIds: [ids.Закат, ids.Восход], ...period, metric };
        const res = await post('/api/compare', body);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(200);
        expect(res.body).toBe(JSON.stringify(compareResponseSchema.parse(res.json())));
        answers++;
      }
    }
    expect(answers).toBe(periods.length * (9 + COMPARE_METRICS.length));
  });

  it('bad requests are a 400 naming the field; unknown projects and developers a 404', async () => {
    for (const [url, payload, field] of [
      ['/api/compare', { projectIds: [], ...PERIOD, metric: 'stock' }, 'projectIds'],
      [
        '/api/compare',
        { projectIds: Array.from({ length: 11 }, (_, i) => i + 1), ...PERIOD, metric: 'stock' },
        'projectIds',
      ],
      ['/api/compare', { projectIds: [ids.Восход, ids.Восход], ...PERIOD, metric: 'stock' }, 'projectIds'],
      ['/api/compare', { projectIds: [ids.Восход], ...PERIOD, metric: 'volume' }, 'metric'],
      ['/api/market', { ...PERIOD, priceClass: 'luxury' }, 'priceClass'],
      ['/api/market', { from: '2026-02-01', to: '2026-01-01' }, 'to'],
      ['/api/market/pace', { ...PERIOD, rooms: 'five' }, 'rooms'],
      ['/api/market/pace', { ...PERIOD, priceClass: 'luxury' }, 'priceClass'],
    ] as const) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const unknown = await post('/api/compare', {
      projectIds: [ids.Восход, 99999],
      ...PERIOD,
      metric: 'stock',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('99999');
    expect((await post('/api/market/pace', { ...PERIOD, developerId: 99999 })).statusCode).toBe(404);
    expect((await post('/api/market', { ...PERIOD, developerId: 99999 })).statusCode).toBe(404);
  });

  it('summaries are kept by the import, read by a fresh process, and equal a rebuild byte for byte', async () => {
    const kept = async () =>
      ctx.db.query<{ name: string; variants: number }>(
        `select p.name, count(distinct (s.status, s.rooms))::int as variants from project p
         join pace_summary s on s.project_id = p.id group by p.name order by p.name`,
      );
    // every variant (2 statuses × 5 rooms groups) of every project, written by the imports themselves
    expect(await kept()).toEqual([
      { name: 'Восход', variants: 10 },
      { name: 'Закат', variants: 10 },
      { name: 'Премьер', variants: 10 },
    ]);
    // a new list of «Закат»: the import brings its summaries up to date before it answers
    const res = await post('/api/ingest/snapshots', [
      list('2026-01-05', 'Альфа', 'Закат', [lot('g1', 10_000_000, 50), lot('g2', 10_000_000, 50)]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    // a fresh app reads what is kept: g3 gone on its first missed list is not REMOVED yet (G = 2)
    const fresh = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    try {
      const pace = await fresh.market.marketPace(ctx.db, {
        developerId: developers.Альфа,
        ...PERIOD,
        rooms: 'all',
        status: 'ALL',
      });
      expect(pace.last).toMatchObject({ date: '2026-01-05', stock: 5, gone30: 1 });
    } finally {
      await fresh.close();
    }
    // `cena-metra rebuild` recomputes every derived datum from the observations: the same bytes
    const before = await keptData(ctx.db);
    await rebuildProjects(ctx.db, 2);
    expect(await keptData(ctx.db)).toEqual(before);
  });
  // last: it imports another list
  it('a ranking of another period of the same data, and after an import, reads as a fresh server’s', async () => {
    const compare = async (
      periods: object[] = [
        PERIOD,
        { from: '2026-01-03', to: '2026-01-05' },
        // a class leaves other projects in the whole and the developers: their own sums
        { from: '2026-01-02', to: '2026-01-04', priceClass: 'business' },
        { from: '2026-01-02', to: '2026-01-04' },
      ],
    ) => {
      for (const period of periods) {
        // this server holds the unions' day sums made for the periods before; a new one makes its own
        const held = (await post('/api/market', period)).json();
        const other = await signedInApp(
          ctx.db,
          {},
          undefined,
          `fresh-${Math.random().toString(36).slice(2)}`,
        );
        try {
          const made = await other.app.inject({
            method: 'POST',
            url: '/api/market',
            headers: other.headers,
            payload: period,
          });
          expect(held).toEqual(made.json());
        } finally {
          await other.app.close();
        }
      }
    };
    await compare();
    // a new list of «Восход»: f1 cheaper again, the developer's and the market's index move
    const res = await post('/api/ingest/snapshots', [
      list('2026-01-05', 'Альфа', 'Закат', [lot('g1', 11_000_000, 50), lot('g2', 10_000_000, 50)]),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const after = (await post('/api/market', PERIOD)).json();
    expect(after.developers.find((r: { name: string }) => r.name === 'Альфа').indexChange).not.toBe(2.41);
    await compare();
    // lists two months on: a late period's sums (the same projects) begin in February, an earlier
    // period's cannot be read from them
    const late = await post('/api/ingest/snapshots', [
      list('2026-03-10', 'Бета', 'Премьер', [lot('h1', 33_000_000), lot('h2', 20_000_000)]),
      list('2026-03-10', 'Альфа', 'Восход', [lot('f1', 9_000_000), lot('f2', 8_000_000)]),
      list('2026-03-10', 'Альфа', 'Закат', [lot('g1', 11_000_000, 50)]),
    ]);
    expect(late.statusCode, late.body).toBe(200);
    await compare([
      { from: '2026-03-05', to: '2026-03-12' },
      { from: '2026-01-01', to: '2026-01-06' },
    ]);
  });
});

// §10.5 (amended 2026-11-24): absorption only over a whole window, i.e. when D − 30 has data.
//   «Гамма» «Давний»: 12-01 d1 d2 d3 d4; 12-20 d1 d2; 01-05 d1 d2 → d3 d4 REMOVED on 01-05 (second miss)
//   «Гамма» «Новый»:  01-02 n1 n2; 01-05 n1 (n2 pending: one miss of the last list)
const WHOLE = [
  list(
    '2025-12-01',
    'Гамма',
    'Давний',
    ['d1', 'd2', 'd3', 'd4'].map((id) => lot(id, 8_000_000)),
  ),
  list(
    '2025-12-20',
    'Гамма',
    'Давний',
    ['d1', 'd2'].map((id) => lot(id, 8_000_000)),
  ),
  list(
    '2026-01-05',
    'Гамма',
    'Давний',
    ['d1', 'd2'].map((id) => lot(id, 8_000_000)),
  ),
  list(
    '2026-01-02',
    'Гамма',
    'Новый',
    ['n1', 'n2'].map((id) => lot(id, 9_000_000)),
  ),
  list('2026-01-05', 'Гамма', 'Новый', [lot('n1', 9_000_000)]),
];

describeEachDb('absorption needs a whole 30-day window', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const res = await app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers, payload: WHOLE });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => app?.close());
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });

  it('a project, a developer and the market: a number when D − 30 has data, null before and without', async () => {
    const [{ id: gamma }] = await ctx.db.query<{ id: number }>('select id from developer');
    const pace = (
      await post('/api/market/pace', { developerId: gamma, from: '2025-12-01', to: '2026-01-05' })
    ).json();
    // a point a day (each list carries to the next); D − 30 has data from 12-31 on (12-01's list)
    const absorption = new Map(
      pace.points.map((p: { date: string; absorption: number | null }) => [p.date, p.absorption]),
    );
    expect(absorption.get('2025-12-01')).toBeNull();
    expect(absorption.get('2025-12-20')).toBeNull();
    expect(absorption.get('2025-12-30')).toBeNull();
    expect(absorption.get('2025-12-31')).toBe(0);
    expect(absorption.get('2026-01-04')).toBe(0);
    expect(absorption.get('2026-01-05')).toBe(50);
    // gone 2 of the 4 on sale on 12-06, nothing new in the window (a project's first list brings no NEW)
    expect(pace.last).toMatchObject({ stock: 4, new30: 0, gone30: 2, absorption: 50, monthsOfSupply: 2 });
    const market = (await post('/api/market', { from: '2025-12-01', to: '2026-01-05' })).json();
    const byName = Object.fromEntries(market.projects.map((r: { name: string }) => [r.name, r]));
    expect(byName.Давний).toMatchObject({ stock: 2, gone30: 2, absorption: 50 });
    // «Новый» has no data on 12-06: its window is not whole
    expect(byName.Новый).toMatchObject({ stock: 2, absorption: null });
    expect(market.developers[0]).toMatchObject({ name: 'Гамма', absorption: 50 });
    expect(market.total).toMatchObject({ absorption: 50 });
    const project = await ctx.db.query<{ id: number }>("select id from project where name = 'Давний'");
    const own = (
      await post('/api/project/pace', { projectId: project[0].id, from: '2025-12-01', to: '2026-01-05' })
    ).json();
    const ownAbsorption = own.points.map((p: { absorption: number | null }) => p.absorption);
    expect(ownAbsorption.slice(0, 30).every((v: number | null) => v === null)).toBe(true);
    expect(ownAbsorption.slice(30)).toEqual([0, 0, 0, 0, 0, 50]);
  });
});
