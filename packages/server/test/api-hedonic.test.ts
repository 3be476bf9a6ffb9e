import {
  belowComparablesResponseSchema,
  compareResponseSchema,
  fairResponseSchema,
  hedonicResponseSchema,
} from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FairReader } from '../src/read/fair-reader.js';
import { HedonicReader } from '../src/read/hedonic-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { generateMarket, marketLists } from './hedonic-market.js';
import { keptData } from './kept-data.js';
import { signedInApp } from './signed-in-app.js';

// POST /api/market/hedonic (DESIGN §12.4) over a generated market imported as price lists: planted trends
// of +0.8 % and −0.3 % a month in two cities, cheap lots selling first, a dear project launching in month 9.

const MONTHS = 16;
const START = (2025 - 1970) * 12; // January 2025
const CITIES = ['Москва', 'Казань'];
const market = generateMarket({
  seed: 12,
  months: MONTHS,
  cities: [
    { trend: 0.008, level: Math.log(300_000) + 0.7 },
    { trend: -0.003, level: Math.log(180_000) + 0.7 },
  ],
  projectsPerCity: 5,
  flatsPerProject: 90,
  launchMonth: 9,
});
const PERIOD = { from: '2025-01-01', to: '2026-04-30' };

describeEachDb('the hedonic index through the API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const lists = marketLists(market, START, CITIES);
    for (let i = 0; i < lists.length; i += 40) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/ingest/snapshots',
        headers,
        payload: lists.slice(i, i + 40),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  }, 120_000);
  afterAll(async () => app?.close());
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/market/hedonic', headers, payload });
  const post2 = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });

  it('each city’s index recovers its planted trend within ±0.3 pp a month; its average ppm does not', async () => {
    for (const [city, name] of CITIES.entries()) {
      const res = await post({ ...PERIOD, city: name });
      expect(res.statusCode, res.body).toBe(200);
      const body = hedonicResponseSchema.parse(res.json());
      expect(body.points).toHaveLength(MONTHS);
      expect(body.points[0]).toMatchObject({ date: '2025-01-01', index: 100, change: null });
      const planted = market.cities[city].trend * 100;
      const rest = body.points.slice(1);
      for (const p of rest)
        expect(Math.abs(p.change! - planted), `${name} ${p.date}`).toBeLessThanOrEqual(0.3);
      const avgMiss = rest.map((p, i) =>
        Math.abs((p.avgMeterPrice / body.points[i].avgMeterPrice - 1) * 100 - planted),
      );
      expect(Math.max(...avgMiss)).toBeGreaterThan(0.3);
      for (const p of rest) {
        expect(p.low).toBeLessThanOrEqual(p.index);
        expect(p.high).toBeGreaterThanOrEqual(p.index);
        expect(p.priceEffect).toBe(p.change);
      }
      // every lot of the city on the month's last day with data: the generated market's own count
      const january = market.observations.filter((o) => o.city === city && o.period === 0).length;
      expect(body.points[0].observations).toBe(january);
    }
  });

  it('the whole market holds both cities; a rooms group, its lots alone', async () => {
    const all = hedonicResponseSchema.parse((await post(PERIOD)).json());
    expect(all.points[0].observations).toBe(market.observations.filter((o) => o.period === 0).length);
    const studios = hedonicResponseSchema.parse((await post({ ...PERIOD, rooms: 'studio' })).json());
    expect(studios.points[0].observations).toBe(
      market.observations.filter((o) => o.period === 0 && o.roomGroup === 0).length,
    );
    const none = hedonicResponseSchema.parse((await post({ ...PERIOD, city: 'Тверь' })).json());
    expect(none).toEqual({ points: [], dropped: 0 });
  });

  it('weekly points (when asked): each a Monday, chained over the weeks, following each city’s planted trend', async () => {
    for (const [city, name] of CITIES.entries()) {
      const res = await post({ from: '2025-01-01', to: '2025-07-31', city: name, step: 'week' });
      expect(res.statusCode, res.body).toBe(200);
      const { points } = hedonicResponseSchema.parse(res.json());
      // the lists are of the 15th: the first week with data is that of 15 January (Monday the 13th)
      expect(points[0]).toMatchObject({ date: '2025-01-13', index: 100, change: null });
      for (const p of points) expect(new Date(`${p.date}T00:00:00Z`).getUTCDay()).toBe(1);
      const weeks = points.map((p) => (Date.parse(p.date) - Date.parse(points[0].date)) / 604_800_000);
      expect(weeks.every((w, i) => i === 0 || w > weeks[i - 1])).toBe(true);
      // the week of 15 July against that of 15 January: six months of the planted trend, ±0.3 pp a month
      const july = points.find((p) => p.date === '2025-07-14')!;
      const monthly = ((july.index / 100) ** (1 / 6) - 1) * 100;
      expect(Math.abs(monthly - market.cities[city].trend * 100), name).toBeLessThanOrEqual(0.3);
      // a week's observations are the city's lots on its list day
      const january = market.observations.filter((o) => o.city === city && o.period === 0).length;
      expect(points[0].observations).toBe(january);
    }
  });

  it('weekly points of a segment larger than fitted per request: a 400 naming step', async () => {
    const reader = new HedonicReader(new ReadCache(), 31, 3);
    const week = { from: '2025-01-01', to: '2025-03-31', rooms: 'all' as const, step: 'week' as const };
    await expect(reader.index(ctx.db, week)).rejects.toThrow(/^step: .*до 3 проектов, в этом 1\d/);
    // a city's five projects are more than three too; the months are kept whatever the size
    await expect(reader.index(ctx.db, { ...week, city: CITIES[0] })).rejects.toThrow(/step/);
    expect((await reader.index(ctx.db, { ...week, step: 'month' })).points).toHaveLength(3);
  });

  it('a rebuild keeps the same bytes, and the answer is the same', async () => {
    const before = await post({ ...PERIOD, city: CITIES[0] });
    const kept = await keptData(ctx.db);
    await rebuildProjects(ctx.db, 2, undefined, undefined, 31);
    expect(await keptData(ctx.db)).toEqual(kept);
    expect((await post({ ...PERIOD, city: CITIES[0] })).body).toBe(before.body);
  });

  it('an active flat’s fair price is within 2 % of its planted price; its ten comparables are of its city', async () => {
    const last = MONTHS - 1;
    const onSale = market.observations.filter((o) => o.period === last && o.city === 0);
    const flats = new Map(market.flats.map((f) => [f.flat, f]));
    for (const o of onSale.filter((_, i) => i % 25 === 0)) {
      const [{ id }] = await ctx.db.query<{ id: number }>('select id from flat where external_id = $1', [
        String(o.flat),
      ]);
      const res = await app.inject({ method: 'GET', url: `/api/flat/fair?flatId=${id}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const body = fairResponseSchema.parse(res.json());
      // the server holds its city's fit after the first flat: a reader with nothing held says the same
      expect(body).toEqual(
        JSON.parse(JSON.stringify(await new FairReader(new ReadCache(), 31).fair(ctx.db, id))),
      );
      const planted = market.plantedPrice(flats.get(o.flat)!, last);
      expect(Math.abs(body.fairPrice / planted - 1)).toBeLessThan(0.02);
      expect(body).toMatchObject({ flatId: id, price: o.price, month: '2026-04-01', segment: CITIES[0] });
      expect(body.premium).toBeCloseTo((o.price / body.fairPrice - 1) * 100, 1);
      expect(body.comparables).toHaveLength(10);
      const projects = await ctx.db.query<{ id: number; name: string }>('select id, name from project');
      const cityOf = new Map(
        projects.map((p) => [p.id, market.flats.find((f) => `Проект ${f.project}` === p.name)!.city]),
      );
      for (const c of body.comparables) {
        expect(c.flatId).not.toBe(id);
        expect(cityOf.get(c.projectId)).toBe(0);
        // the adjusted price: its ppm moved by the adjustment (rounded to 0.01 %), for the flat's area
        const adjusted = (c.price / c.area) * (1 + c.adjustment / 100) * o.area;
        expect(Math.abs(c.adjustedPrice / adjusted - 1)).toBeLessThan(1e-4);
      }
    }
  });

  it('a flat that is not on sale or does not exist is a 404; a bad id a 400', async () => {
    expect(
      (await app.inject({ method: 'GET', url: '/api/flat/fair?flatId=999999', headers })).statusCode,
    ).toBe(404);
    const res = await app.inject({ method: 'GET', url: '/api/flat/fair?flatId=abc', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('flatId');
    const sold = market.flats.find(
      (f) => !market.observations.some((o) => o.flat === f.flat && o.period === MONTHS - 1),
    );
    const [{ id }] = await ctx.db.query<{ id: number }>('select id from flat where external_id = $1', [
      String(sold!.flat),
    ]);
    const gone = await app.inject({ method: 'GET', url: `/api/flat/fair?flatId=${id}`, headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toContain('не в продаже');
  });

  it('«Ниже аналогов»: the flats at least X % below their fair price, cheapest first, filtered like «Рынок»', async () => {
    const res = await post2('/api/market/below-comparables', { threshold: 3, limit: 20 });
    expect(res.statusCode, res.body).toBe(200);
    const body = belowComparablesResponseSchema.parse(res.json());
    // every flat active on its project's latest list day (a flat gone from one list is active till the grace ends)
    const activeCount = async (where: string) => {
      const [{ n }] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from flat_segment s join project p on p.id = s.project_id
         where s.start_day <= p.last_snapshot_date and (s.end_day is null or s.end_day >= p.last_snapshot_date)
           and ${where}`,
      );
      return n;
    };
    expect(body.priced).toBe(await activeCount('true'));
    expect(body.total).toBeGreaterThan(0);
    expect(body.rows.length).toBe(Math.min(20, body.total));
    for (const [i, r] of body.rows.entries()) {
      expect(r.premium).toBeLessThanOrEqual(-3);
      if (i) expect(r.premium).toBeGreaterThanOrEqual(body.rows[i - 1].premium);
      // the flat's own fair price says the same
      const fair = fairResponseSchema.parse(
        (await app.inject({ method: 'GET', url: `/api/flat/fair?flatId=${r.flatId}`, headers })).json(),
      );
      expect(fair.premium).toBe(r.premium);
      expect(fair.fairPrice).toBe(r.fairPrice);
    }
    // a city and a rooms group narrow it
    const kazan = belowComparablesResponseSchema.parse(
      (await post2('/api/market/below-comparables', { threshold: 3, city: CITIES[1], rooms: 'two' })).json(),
    );
    const kazanProjects = [
      ...new Set(market.flats.filter((f) => f.city === 1).map((f) => `'Проект ${f.project}'`)),
    ];
    expect(kazan.priced).toBe(await activeCount(`s.rooms = 2 and p.name in (${kazanProjects.join(', ')})`));
    expect(kazan.priced).toBeGreaterThan(0);
    expect(kazan.rows.every((r) => r.segment === CITIES[1] && r.rooms === 2)).toBe(true);
    for (const [payload, field] of [
      [{ threshold: -1 }, 'threshold'],
      [{ threshold: 'много' }, 'threshold'],
      [{ limit: 5000 }, 'limit'],
      [{ priceClass: 'элит' }, 'priceClass'],
    ] as const) {
      const bad = await post2('/api/market/below-comparables', payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(field);
    }
    const nobody = await post2('/api/market/below-comparables', { developerId: 999_999 });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().message).toContain('застройщик 999999');
  });

  it('«Сравнение» by the hedonic index: each project’s own, month by month, 100 at its first month', async () => {
    const projects = await ctx.db.query<{ id: number; name: string }>(
      'select id, name from project order by id',
    );
    const cityOf = (name: string) => market.flats.find((f) => `Проект ${f.project}` === name)!.city;
    const picked = [projects[0], projects.find((p) => cityOf(p.name) === 1)!];
    const res = await post2('/api/compare', {
      ...PERIOD,
      projectIds: picked.map((p) => p.id),
      metric: 'hedonic',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = compareResponseSchema.parse(res.json());
    expect(body.metric).toBe('hedonic');
    for (const [i, s] of body.series.entries()) {
      expect(s.projectId).toBe(picked[i].id);
      expect(s.points).toHaveLength(MONTHS);
      expect(s.points[0]).toEqual({ date: '2025-01-01', value: 100 });
      // a project's own index follows its city's planted trend over the period
      const monthly = ((s.points.at(-1)!.value! / 100) ** (1 / (MONTHS - 1)) - 1) * 100;
      expect(Math.abs(monthly - market.cities[cityOf(picked[i].name)].trend * 100)).toBeLessThan(0.3);
    }
    const unknown = await post2('/api/compare', { ...PERIOD, projectIds: [999_999], metric: 'hedonic' });
    expect(unknown.statusCode).toBe(404);
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ ...PERIOD, rooms: 'five' }, 'rooms'],
      [{ ...PERIOD, priceClass: 'luxury' }, 'priceClass'],
      [{ ...PERIOD, step: 'day' }, 'step'],
      [{ from: '2024-01-01', to: '2026-04-30', step: 'week' }, 'step'],
      [{ from: 'вчера', to: PERIOD.to }, 'from'],
      [{ from: PERIOD.to, to: PERIOD.from }, 'from'],
    ] as const) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });
});
