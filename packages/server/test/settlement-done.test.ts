import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §10.3: «Дом сдан», «Готовая квартира», «Ключи» → settlement «Сдан» (DONE), apart from no date.

describeEachDb('settlement «Сдан»', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
  });
  afterAll(async () => app?.close());

  it('is stored, summarised, shown on the card and sorted after every date; no date stays "null"', async () => {
    const flats = [
      { ...flat('done', 1, 40, 8_000_000), settlementDate: 'Дом сдан' },
      { ...flat('keys', 1, 40, 8_400_000), settlementDate: 'Ключи выданы' },
      { ...flat('dated', 2, 60, 12_000_000), settlementDate: '4 кв. 2026' },
      { ...flat('none', 2, 60, 12_600_000) },
    ];
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [snap('2026-11-01', 'ПИК', 'Перовское 2', flats)],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [{ id }] = await ctx.db.query<{ id: number }>(`select id from project where name = 'Перовское 2'`);
    const stats = (
      await app.inject({
        method: 'POST',
        url: '/api/project/stats',
        headers,
        payload: { projectId: id, from: '2026-11-01', to: '2026-11-01' },
      })
    ).json();
    expect(stats.allRoomsData.points[0].avgMeterPriceBySettlementDate).toEqual({
      DONE: 205_000,
      '2026-12-31': 200_000,
      null: 210_000,
    });
    expect(
      stats.shortFlatSummaryList.map((r: { settlementDate: string | null }) => r.settlementDate),
    ).toEqual(['2026-12-31', 'DONE', null]);
    const [{ flat_id }] = await ctx.db.query<{ flat_id: number }>(
      `select f.id as flat_id from flat f where f.external_id = 'done'`,
    );
    const card = (await app.inject({ method: 'GET', url: `/api/flat?flatId=${flat_id}`, headers })).json();
    expect(card.record.settlementDate).toBe('DONE');
  });
});
