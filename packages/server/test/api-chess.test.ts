import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// GET /api/chess (DESIGN §10.7): one building, section 1, floors 2 and 1, and a lot without a floor.
//   a (floor 2, № 3): 8.0 M, cut to 7.6 M on 01-02        b (floor 1, № 1): reserved throughout
//   c (floor 1, № 2): gone after 01-02 (missed 01-03 and 01-04)     d: no floor, no number
const lot = (id: string, over: object) => ({
  id,
  building: 'Корпус 1',
  section: '1',
  rooms: 1,
  area: 40,
  ...over,
});
const a = (price: number) => lot('a', { floor: 2, number: '3', price });
const b = lot('b', { floor: 1, number: '1', price: 6_000_000, status: 'RESERVED' });
const c = lot('c', { floor: 1, number: '2', price: 7_000_000 });
const d = lot('d', { price: 5_000_000 });
const day = (date: string, flats: object[]) => ({ date, developer: 'Шахматка', project: 'Дом', flats });

describeEachDb('the chessboard through the API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let projectId = 0;
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [
        day('2026-01-01', [a(8_000_000), b, c, d]),
        day('2026-01-02', [a(7_600_000), b, c, d]),
        day('2026-01-03', [a(7_600_000), b, d]),
        day('2026-01-04', [a(7_600_000), b, d]),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    [{ id: projectId }] = await ctx.db.query<{ id: number }>("select id from project where name = 'Дом'");
  });
  afterAll(async () => app?.close());
  const get = (query: string) =>
    app.inject({ method: 'GET', url: `/api/chess?projectId=${projectId}${query}`, headers });

  it('places the flats by section, floor (top first) and number; gone and reserved; the strip below', async () => {
    const res = await get('&since=2026-01-01');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      building: '1',
      buildings: ['1'],
      dates: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'],
      date: '2026-01-04',
      since: '2026-01-01',
    });
    const floors = body.sections[0].floors.map(
      (f: { floor: number; cells: { number: string; state: string; status: string | null }[] }) => [
        f.floor,
        f.cells.map((x) => `${x.number}:${x.state}:${x.status}`),
      ],
    );
    expect(body.sections.map((s: { section: string }) => s.section)).toEqual(['1']);
    expect(floors).toEqual([
      [2, ['3:active:null']],
      [1, ['1:active:RESERVED', '2:gone:null']],
    ]);
    const top = body.sections[0].floors[0].cells[0];
    expect(top).toMatchObject({
      price: 7_600_000,
      priceSince: 8_000_000,
      meterPrice: 190_000,
      daysOnMarket: 3,
    });
    const gone = body.sections[0].floors[1].cells[1];
    expect(gone).toMatchObject({ firstSeen: '2026-01-01', lastSeen: '2026-01-02', daysOnMarket: 1 });
    expect(body.strip.map((x: { floor: null; number: null }) => [x.floor, x.number])).toEqual([[null, null]]);
  });

  it('a day on the slider: on 01-02 the flat not yet gone is on sale', async () => {
    const body = (await get('&building=1&date=2026-01-02')).json();
    expect(body.date).toBe('2026-01-02');
    expect(body.sections[0].floors[1].cells.map((x: { state: string }) => x.state)).toEqual([
      'active',
      'active',
    ]);
    // before the first list: nothing to place
    const before = (await get('&date=2025-12-01')).json();
    expect(before).toMatchObject({ date: null, sections: [], strip: [] });
  });

  it('bad input is a 400 naming the field; an unknown project or building a 404', async () => {
    for (const [query, field] of [
      ['&date=2026-13-01', 'date'],
      ['&since=вчера', 'since'],
    ] as const) {
      const res = await get(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect((await get('&building=99')).statusCode).toBe(404);
    const unknown = await app.inject({ method: 'GET', url: '/api/chess?projectId=99999', headers });
    expect(unknown.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/chess?projectId=x', headers })).statusCode).toBe(
      400,
    );
  });
});
