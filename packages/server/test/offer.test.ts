import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { FIXTURES, scratchDir, snapshotsOf, writeYrlFeed } from './read-snapshots.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §11.4: prices as offered — old price, prices by payment term, promo, booking fee, plan.

const dir = scratchDir('cena-offer-');
const offers = (s: { flats: { rec: { offer: string | null } }[] }) =>
  s.flats.map((f) => (f.rec.offer === null ? null : JSON.parse(f.rec.offer)));

describe('readers give the offer', () => {
  it('the PIK scrape (real fixture): its badges «Ипотека 4,6%» are the promotion; a number would be a price', async () => {
    const [salaryevo] = (
      await snapshotsOf(join(FIXTURES, 'pik-scrape', 'flats.csv'), { date: '2021-01-15' })
    ).filter((s) => s.project === 'Саларьево парк');
    expect(offers(salaryevo).slice(0, 3)).toEqual([
      { promo: 'Ипотека 4,6%' },
      { promo: 'Ипотека 4,6%' },
      { promo: 'Ипотека 4,6%' },
    ]);
    const { scrapeOffer } = await import('../src/ingest/readers/pik-csv.js');
    expect(scrapeOffer('13 806 240 ₽', '12 900 000 ₽')).toEqual({
      oldPrice: 13_806_240,
      offerPrices: { mortgage: 12_900_000 },
      promo: null,
    });
    expect(scrapeOffer('Цена 2020 года', undefined)).toMatchObject({
      oldPrice: null,
      promo: 'Цена 2020 года',
    });
  });

  it('the PIK API (real fixture): the booking fee; a discount gives the crossed-out price', async () => {
    const [list] = await snapshotsOf(join(FIXTURES, 'pik-api', '2020-01-10T15-33.json'));
    expect(offers(list).every((o) => o?.bookingCost === 5000)).toBe(true);
    const path = join(dir, '2026-11-20.json');
    writeFileSync(
      path,
      JSON.stringify({
        flats: [
          {
            id: 1,
            status: 'free',
            rooms: 1,
            floor: 3,
            number: 10,
            price: 9_000_000,
            discount: 500_000,
            area: 40,
            booking_cost: '5000',
            block: { name: 'Саларьево парк' },
            bulk: { title: '34', settlement_year: 2027 },
            section: { number: 1 },
            layout: { flat_plan_png: 'https://cdn.example.ru/plan-10.png' },
          },
        ],
      }),
    );
    const [one] = await snapshotsOf(path);
    expect(offers(one)).toEqual([
      { oldPrice: 9_500_000, bookingCost: 5000, planUrl: 'https://cdn.example.ru/plan-10.png' },
    ]);
  });

  it('our CSV: oldPrice, promo, bookingCost, planUrl and a price:<term> column per payment term', async () => {
    const path = join(dir, 'offers.csv');
    writeFileSync(
      path,
      [
        'date,developer,project,id,building,rooms,area,price,oldPrice,promo,price:cash,price:mortgage,planUrl',
        '2026-11-20,Пионер,Ручей,a,1,1,40,9000000,9500000,Скидка 5 %,8800000,,https://x.ru/a.png',
        '2026-11-20,Пионер,Ручей,b,1,2,60,12000000,,,,12500000,',
        '2026-11-20,Пионер,Ручей,c,1,2,60,12000000,,,,,',
      ].join('\n'),
    );
    const [list] = await snapshotsOf(path);
    expect(offers(list)).toEqual([
      {
        oldPrice: 9_500_000,
        offerPrices: { cash: 8_800_000 },
        promo: 'Скидка 5 %',
        planUrl: 'https://x.ru/a.png',
      },
      { offerPrices: { mortgage: 12_500_000 } },
      null,
    ]);
  });

  it('YRL: the plan is <image tag="plan">', async () => {
    const path = writeYrlFeed(
      join(dir, 'feed.xml'),
      `  <offer internal-id="1">
    <type>продажа</type><category>квартира</category>
    <sales-agent><organization>Пионер</organization></sales-agent>
    <price><value>9000000</value><currency>RUB</currency></price>
    <area><value>40</value></area><rooms>1</rooms>
    <image>https://x.ru/photo.jpg</image><image tag="plan">https://x.ru/plan.png</image>
    <building-name>ЖК Ручей</building-name><building-section>1</building-section>
  </offer>`,
    );
    const [list] = await snapshotsOf(path);
    expect(offers(list)).toEqual([{ planUrl: 'https://x.ru/plan.png' }]);
  });
});

const offered = (id: string, price: number, offer: Record<string, unknown>) => ({
  ...flat(id, 1, 40, price),
  ...offer,
});

describeEachDb(
  'offers through the API: kept when they change, the card, bad values refused with the field named',
  (ctx) => {
    let app: FastifyInstance;
    let headers: Record<string, string> = {};
    const ingest = (body: unknown) =>
      app.inject({ method: 'POST', url: '/api/ingest/snapshots', payload: body as object, headers });
    beforeAll(async () => {
      ({ app, headers } = await signedInApp(ctx.db));
    });
    afterAll(async () => app?.close());

    it('a flat\u2019s offer is stored when it changes, and the card shows it with the developer\u2019s discount', async () => {
      const promo = { oldPrice: 10_000_000, promo: 'Скидка 10 % до конца месяца', bookingCost: 30_000 };
      const res = await ingest([
        snap('2026-11-01', 'Пионер', 'Ручей', [offered('a', 9_000_000, promo), flat('b', 2, 60, 12_000_000)]),
        snap('2026-11-02', 'Пионер', 'Ручей', [offered('a', 9_000_000, promo), flat('b', 2, 60, 12_000_000)]),
        snap('2026-11-03', 'Пионер', 'Ручей', [
          offered('a', 9_000_000, { offerPrices: { cash: 8_700_000, 'Trade-in': 8_900_000 } }),
          flat('b', 2, 60, 12_000_000),
        ]),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().map((r: { warnings?: string[] }) => r.warnings)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      const [{ id }] = await ctx.db.query<{ id: number }>("select id from flat where external_id = 'a'");
      // 11-01 and 11-03: the offer of 11-02 is the one before
      const rows = await ctx.db.query<{ n: number }>(
        'select count(*)::int as n from flat_observation where flat_id = $1',
        [id],
      );
      expect(rows[0].n).toBe(2);
      const card = (await app.inject({ method: 'GET', url: `/api/flat?flatId=${id}`, headers })).json();
      expect(card.offer).toEqual({
        oldPrice: null,
        offerPrices: { 'Trade-in': 8_900_000, cash: 8_700_000 },
        promo: null,
        bookingCost: null,
        planUrl: null,
      });
      expect(card.developerDiscount).toBeNull();
      expect(
        card.offerHistory.map((h: { date: string; offer: { promo: string | null } }) => [
          h.date,
          h.offer.promo,
        ]),
      ).toEqual([
        ['2026-11-01', 'Скидка 10 % до конца месяца'],
        ['2026-11-03', null],
      ]);
      expect(card.offerHistory[0].offer).toMatchObject({ oldPrice: 10_000_000, bookingCost: 30_000 });
      // the price did not change: one point of price history
      expect(card.priceHistory).toHaveLength(1);
      // avg ppm by payment term, kept by the import: only 11-03 prices terms (a on 40 m²)
      const [{ project_id: projectId }] = await ctx.db.query<{ project_id: number }>(
        'select project_id from flat where id = $1',
        [id],
      );
      const terms = await app.inject({
        method: 'POST',
        url: '/api/project/offer-prices',
        headers,
        payload: { projectId, from: '2026-11-01', to: '2026-11-03' },
      });
      expect(terms.statusCode, terms.body).toBe(200);
      expect(terms.json()).toEqual({
        terms: [
          {
            term: 'Trade-in',
            label: 'Trade-in',
            points: [{ date: '2026-11-03', avgMeterPrice: 222_500, count: 1 }],
          },
          {
            term: 'cash',
            label: '100 % оплата',
            points: [{ date: '2026-11-03', avgMeterPrice: 217_500, count: 1 }],
          },
        ],
      });
      const none = await app.inject({
        method: 'POST',
        url: '/api/project/offer-prices',
        headers,
        payload: { projectId, from: '2026-11-01', to: '2026-11-02' },
      });
      expect(none.json()).toEqual({ terms: [] });
      // bad input: a 400 naming the field, an unknown project a 404
      const badRange = await app.inject({
        method: 'POST',
        url: '/api/project/offer-prices',
        headers,
        payload: { projectId, from: '2026-11-05', to: '2026-11-01' },
      });
      expect(badRange.statusCode).toBe(400);
      expect(badRange.json().message).toMatch(/to/);
      const unknown = await app.inject({
        method: 'POST',
        url: '/api/project/offer-prices',
        headers,
        payload: { projectId: 999_999, from: '2026-11-01', to: '2026-11-03' },
      });
      expect(unknown.statusCode).toBe(404);
      // the list of 11-01 again: unchanged, the offer is part of what the list says
      const again = await ingest([
        snap('2026-11-01', 'Пионер', 'Ручей', [offered('a', 9_000_000, promo), flat('b', 2, 60, 12_000_000)]),
      ]);
      expect(again.json()[0].status).toBe('unchanged');
    });

    it('the developer\u2019s discount: (old − price) / old', async () => {
      const [{ id }] = await ctx.db.query<{ id: number }>("select id from flat where external_id = 'a'");
      // a watch of the flat that asks for the developer's promotions (and nothing else)
      const watch = await app.inject({
        method: 'POST',
        url: '/api/watches',
        headers,
        payload: {
          kind: 'flat',
          flatId: id,
          rules: { price: false, removed: false, back: false, promo: true },
        },
      });
      expect(watch.statusCode, watch.body).toBe(201);
      await ingest([
        snap('2026-11-04', 'Пионер', 'Ручей', [offered('a', 9_000_000, { oldPrice: 9_600_000 })]),
      ]);
      const card = (await app.inject({ method: 'GET', url: `/api/flat?flatId=${id}`, headers })).json();
      expect(card.developerDiscount).toBe(6.25);
      // the promotion of 11-01 ended on 11-03 (prices by term are no promotion), the old price came on 11-04
      const events = await app.inject({
        method: 'GET',
        url: '/api/price-changes?from=2026-11-01&to=2026-11-04&pageSize=50',
        headers,
      });
      expect(events.statusCode, events.body).toBe(200);
      const promo = events
        .json()
        .rows.filter((r: { kind: string }) => r.kind.startsWith('PROMO'))
        .map((r: { date: string; kind: string }) => [r.date, r.kind]);
      expect(promo.sort()).toEqual([
        ['2026-11-03', 'PROMO_ENDED'],
        ['2026-11-04', 'PROMO_STARTED'],
      ]);
      const ended = await app.inject({
        method: 'GET',
        url: '/api/price-changes?from=2026-11-01&to=2026-11-04&kind=PROMO_ENDED',
        headers,
      });
      expect(ended.json().total).toBe(1);
      // the daily summaries count them: the list's days and a day's project row
      const list = (await app.inject({ method: 'GET', url: '/api/summaries?limit=10', headers })).json();
      const day = (date: string) => list.find((s: { date: string }) => s.date === date);
      expect(day('2026-11-03')).toMatchObject({ promoStarted: 0, promoEnded: 1 });
      expect(day('2026-11-04')).toMatchObject({ promoStarted: 1, promoEnded: 0 });
      const summary = (
        await app.inject({ method: 'GET', url: `/api/summary/${day('2026-11-04').id}`, headers })
      ).json();
      expect(summary.projects.find((p: { projectName: string }) => p.projectName === 'Ручей')).toMatchObject({
        promoStarted: 1,
        promoEnded: 0,
      });
      // and the watch alerted of the promotion that started, by its rule alone (the import's alerts are
      // computed after its answer; one computation more waits for the one under way)
      await app.computeAlerts();
      const alerts = (await app.inject({ method: 'GET', url: '/api/alerts?limit=50', headers })).json()
        .alerts;
      expect(
        alerts
          .filter((a: { watchId: number }) => a.watchId === watch.json().id)
          .map((a: { kind: string; day: string }) => [a.kind, a.day]),
      ).toEqual([['PROMO_STARTED', '2026-11-04']]);
    });

    it('bad offers: the value refused with its field named, the rest of the flat and the list kept, never a 500', async () => {
      const res = await ingest([
        snap('2026-11-05', 'Пионер', 'Ручей', [
          offered('a', 9_000_000, { oldPrice: 8_000_000, promo: 'Ипотека 6 %' }),
          offered('b', 12_000_000, { offerPrices: { cash: 50 }, planUrl: 'javascript:alert(1)' }),
          offered('c', 12_000_000, { offerPrices: 'дёшево', bookingCost: -1, promo: 'x'.repeat(201) }),
        ]),
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const [result] = res.json();
      expect(result.status).toBe('imported');
      expect(result.flats).toBe(3);
      expect(result.warnings).toEqual([
        expect.stringMatching(/flats\[0\]\.oldPrice: старая цена ниже цены квартиры \(получено 8000000\)$/),
        expect.stringMatching(/flats\[1\]\.offerPrices\.cash: должно быть целым числом рублей/),
        expect.stringMatching(/flats\[1\]\.planUrl: должно быть адресом http\(s\)/),
        expect.stringMatching(/flats\[2\]\.offerPrices: должно быть объектом/),
        expect.stringMatching(/flats\[2\]\.promo: не длиннее 200 символов/),
        expect.stringMatching(/flats\[2\]\.bookingCost: должно быть целым числом рублей/),
      ]);
      const [{ id }] = await ctx.db.query<{ id: number }>("select id from flat where external_id = 'a'");
      const card = (await app.inject({ method: 'GET', url: `/api/flat?flatId=${id}`, headers })).json();
      // the old price refused, the promotion kept
      expect(card.offer).toMatchObject({ oldPrice: null, promo: 'Ипотека 6 %' });
    });
  },
);

describeEachDb('discounts by the developer’s data beside those by price history (§11.4)', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    // «a»: 10 M crossed out, sold at 9 M, its price never changed; «b»: cut from 12 M to 11.4 M, no old price
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [
        snap('2026-11-01', 'Пионер', 'Ручей', [
          offered('a', 9_000_000, { oldPrice: 10_000_000 }),
          offered('b', 12_000_000, {}),
        ]),
        snap('2026-11-02', 'Пионер', 'Ручей', [
          offered('a', 9_000_000, { oldPrice: 10_000_000 }),
          offered('b', 11_400_000, {}),
        ]),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => app?.close());

  it('each basis its own flats and figures, never mixed; a bad basis is a 400 naming the field', async () => {
    const history = (await post('/api/discount', { period: 'WEEK' })).json();
    expect(
      history.rows.map((r: { discountPercent: number; refPrice: number }) => [r.discountPercent, r.refPrice]),
    ).toEqual([[5, 12_000_000]]);
    const developer = (await post('/api/discount', { period: 'WEEK', basis: 'developer' })).json();
    expect(
      developer.rows.map((r: { discountPercent: number; refPrice: number }) => [
        r.discountPercent,
        r.refPrice,
      ]),
    ).toEqual([[10, 10_000_000]]);
    const projects = (await post('/api/discount/project', { period: 'WEEK', basis: 'developer' })).json();
    expect(projects.rows[0]).toMatchObject({ activeFlats: 2, discountedFlats: 1, maxDiscountPercent: 10 });
    const bad = await post('/api/discount', { period: 'WEEK', basis: 'guess' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('basis');
  });

  it('the summary table: the largest developer\u2019s discount of each row beside the history\u2019s, null without a crossed-out price', async () => {
    const [{ id: projectId }] = await ctx.db.query<{ id: number }>(
      `select id from project where name = 'Ручей'`,
    );
    // kept for the last day (as the import wrote it) and made from the timeline for an earlier day
    for (const to of ['2026-11-02', '2026-11-01']) {
      const stats = (await post('/api/project/stats', { projectId, from: '2026-11-01', to })).json();
      const rows = stats.shortFlatSummaryList;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        activeFlatsCount: 2,
        maxDeveloperDiscount: 10,
        // «b»'s cut is the history's, «a»'s crossed-out price the developer's: never mixed
        maxDiscountLastDay: to === '2026-11-02' ? 5 : 0,
      });
    }
    // a row whose flats show no crossed-out price has none (null, not 0)
    const res = await post('/api/ingest/snapshots', [
      snap('2026-11-01', 'Пионер', 'Без скидок', [offered('c', 7_000_000, {})]),
    ] as unknown as object);
    expect(res.statusCode, res.body).toBe(200);
    const [{ id: plain }] = await ctx.db.query<{ id: number }>(
      `select id from project where name = 'Без скидок'`,
    );
    const stats = (
      await post('/api/project/stats', { projectId: plain, from: '2026-11-01', to: '2026-11-01' })
    ).json();
    expect(stats.shortFlatSummaryList[0]).toMatchObject({ activeFlatsCount: 1, maxDeveloperDiscount: null });
  });
});
