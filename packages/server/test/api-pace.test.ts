import { indexResponseSchema, paceResponseSchema } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { PACE_EXAMPLE } from './pace-example.js';
import { signedInApp } from './signed-in-app.js';

// POST /api/project/pace and /api/project/index (DESIGN §10.5–10.6), from the stored derived data.

const lot = (id: number, rooms: number, price = 8_000_000) => ({
  id: `f${id}`,
  building: '1',
  rooms,
  area: 40,
  price,
});
const day = (date: string, ids: number[], project = 'Темп', price = (_: number) => 8_000_000) => ({
  date,
  developer: 'Темп',
  project,
  flats: ids.map((id) => lot(id, PACE_EXAMPLE.rooms[id] ?? 1, price(id))),
});

describeEachDb('sales pace and the same-flat index through the API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [
        ...PACE_EXAMPLE.lists.map(([date, flats]) => day(date, flats)),
        // a project whose every lot rises 10 % a list, while a dear lot joins: the index ignores the mix
        day('2026-01-01', [1, 2], 'Индекс', () => 8_000_000),
        day('2026-01-02', [1, 2], 'Индекс', () => 8_800_000),
        day('2026-01-03', [1, 2, 3], 'Индекс', (id) => (id === 3 ? 30_000_000 : 9_680_000)),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const p of await ctx.db.query<{ id: number; name: string }>('select id, name from project'))
      ids[p.name] = p.id;
  });
  afterAll(async () => app?.close());
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });

  it('pace: stock, new, gone, absorption, months of supply, medians — and a filter by rooms', async () => {
    const res = await post('/api/project/pace', {
      projectId: ids.Темп,
      from: '2026-01-01',
      to: '2026-01-05',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.points).toHaveLength(5);
    // the figures worked by hand, as the engine's own test has them
    expect(body.last).toEqual(PACE_EXAMPLE.last);
    const one = (
      await post('/api/project/pace', {
        projectId: ids.Темп,
        from: '2026-01-01',
        to: '2026-01-05',
        rooms: 'one',
      })
    ).json();
    expect(one.last).toMatchObject(PACE_EXAMPLE.lastOneRoom);
  });

  it('pace per summary row: the 2-room lot gone on 01-04 is its own row, not the 1-room row’s', async () => {
    const res = await post('/api/project/pace/rows', { projectId: ids.Темп, date: '2026-01-05' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.rows).toEqual([
      {
        id: expect.stringMatching(/^1\|null\|[A-Z_]+\|1$/),
        // flat 3 came back on 01-05: not gone; two NEW (5 on 01-02, 3 again on 01-05)
        absorption30: null,
        medianDaysOnMarket: null,
        medianStockAge: 4,
      },
    ]);
    // the row's id is the summary table's
    const stats = (
      await post('/api/project/stats', { projectId: ids.Темп, from: '2026-01-01', to: '2026-01-05' })
    ).json();
    expect(stats.shortFlatSummaryList.map((r: { id: string }) => r.id)).toEqual([body.rows[0].id]);
  });

  it('the ppm distribution of a day per room group, and a flat card’s percentile among its group', async () => {
    const res = await post('/api/project/distribution', { projectId: ids.Индекс, date: '2026-01-03' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.date).toBe('2026-01-03');
    const one = body.groups.find((g: { group: string }) => g.group === 'one');
    // two lots at 242,000 ₽/m² and the dear one at 750,000
    expect(one.count).toBe(3);
    expect(one.median).toBe(242_000);
    expect(one.bins.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(3);
    expect(one.bins[0]).toMatchObject({ count: 2 });
    expect(one.bins.at(-1)).toMatchObject({ count: 1 });
    // the last list's distribution is kept by the import; an earlier day's is read from the timeline
    const kept = (await post('/api/project/distribution', { projectId: ids.Индекс })).json();
    expect(kept).toEqual(body);
    const earlier = (
      await post('/api/project/distribution', { projectId: ids.Индекс, date: '2026-01-02' })
    ).json();
    expect(earlier.date).toBe('2026-01-02');
    expect(earlier.groups.find((g: { group: string }) => g.group === 'one')).toMatchObject({
      count: 2,
      median: 220_000,
    });
    // before the first list: no day, no flats
    const none = (
      await post('/api/project/distribution', { projectId: ids.Индекс, date: '2025-12-01' })
    ).json();
    expect(none.date).toBeNull();
    expect(none.groups.every((g: { count: number }) => g.count === 0)).toBe(true);
    const [dear] = await ctx.db.query<{ id: number }>(
      "select f.id from flat f join project p on p.id = f.project_id where p.name = 'Индекс' and f.external_id = 'f3'",
    );
    const card = await app.inject({ method: 'GET', url: `/api/flat?flatId=${dear.id}`, headers });
    expect(card.json().percentile).toEqual({ value: 100, group: 'one', of: 3, date: '2026-01-03' });
  });

  it('index: 100, 110, 121 while the average jumps with the dear lot', async () => {
    const res = await post('/api/project/index', {
      projectId: ids.Индекс,
      from: '2026-01-01',
      to: '2026-01-03',
    });
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json().series.find((s: { group: string }) => s.group === 'all');
    expect(all.points).toEqual([
      { date: '2026-01-01', index: 100 },
      { date: '2026-01-02', index: 110 },
      { date: '2026-01-03', index: 121 },
    ]);
  });

  it('every pace and index answer is the response schema’s output, byte for byte (they are written as made)', async () => {
    let answers = 0;
    for (const project of [ids.Темп, ids.Индекс])
      for (const [from, to] of [
        ['2025-12-01', '2026-02-01'],
        ['2026-01-01', '2026-01-03'],
        ['2026-01-02', '2026-01-02'],
        ['2020-01-01', '2020-01-31'],
      ])
        for (const extra of [
          {},
          { rooms: 'two' },
          { status: 'AVAILABLE' },
          { rooms: 'studio', status: 'ALL' },
        ]) {
          const body = { projectId: project, from, to, ...extra };
          for (const [url, schema] of [
            ['/api/project/pace', paceResponseSchema],
            ['/api/project/index', indexResponseSchema],
          ] as const) {
            const res = await post(url, body);
            expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(200);
            // zod's output has the schema's keys in the schema's order, and nothing else
            expect(res.body, `${url} ${JSON.stringify(body)}`).toBe(JSON.stringify(schema.parse(res.json())));
            answers++;
          }
        }
    expect(answers).toBe(64);
  });

  it('bad requests are a 400 naming the field; an unknown project a 404', async () => {
    const base = { projectId: ids.Темп, from: '2026-01-01', to: '2026-01-05' };
    for (const [payload, field] of [
      [{ ...base, rooms: 'five' }, 'rooms'],
      [{ ...base, status: 'FREE' }, 'status'],
      [{ ...base, from: '2026-02-01' }, 'to'],
    ] as const) {
      const res = await post('/api/project/pace', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect((await post('/api/project/index', { ...base, projectId: 99999 })).statusCode).toBe(404);
  });
});
