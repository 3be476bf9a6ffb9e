import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §10.2 (status), §10.3 (AREA_CHANGED) and §10.4 (partial scans) through the API, on both databases.

const lot = (id: string, area: number, price: number, status?: string) => ({
  id,
  building: '1',
  rooms: 1,
  area,
  price,
  floor: 3,
  ...(status && { status }),
});
const list = (date: string, flats: unknown[], extra: object = {}) => ({
  date,
  developer: 'Статус',
  project: 'Проверка',
  flats,
  ...extra,
});
/** Four lots: a on sale, b reserved, c without a status (on sale), d on sale. */
const full = (date: string, over: Partial<Record<'a' | 'b' | 'c' | 'd', unknown>> = {}) =>
  list(
    date,
    Object.entries({
      a: lot('a', 40, 8_000_000, 'AVAILABLE'),
      b: lot('b', 50, 10_000_000, 'RESERVED'),
      c: lot('c', 60, 12_000_000),
      d: lot('d', 45, 9_000_000, 'AVAILABLE'),
      ...over,
    })
      .filter(([, v]) => v !== null)
      .map(([, v]) => v),
  );

describeEachDb('status, area changes and partial scans', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let projectId = 0;
  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers, payload: payload as object });
  const get = (url: string) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    const day2 = {
      a: lot('a', 40.5, 7_800_000, 'AVAILABLE'), // price and area change on one day
      b: lot('b', 50, 9_500_000, 'RESERVED'),
      c: lot('c', 60, 12_000_000, 'RESERVED'),
    };
    const res = await post('/api/ingest/snapshots', [
      full('2026-11-01'),
      full('2026-11-02', day2),
      full('2026-11-03', { ...day2, c: lot('c', 60, 12_000_000, 'AVAILABLE') }),
      // a scan that caught one lot of four: partial
      list('2026-11-04', [lot('a', 40.5, 7_800_000, 'AVAILABLE')]),
      full('2026-11-05', { ...day2, c: lot('c', 60, 12_000_000, 'AVAILABLE'), d: null }),
      full('2026-11-06', { ...day2, c: lot('c', 60, 12_000_000, 'AVAILABLE'), d: null }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json() as { date: string; partial: boolean; events: Record<string, number> }[];
    expect(results.map((r) => r.partial)).toEqual([false, false, false, true, false, false]);
    expect(results[1].events).toMatchObject({
      NEW: 0,
      REMOVED: 0,
      PRICE_UP: 0,
      PRICE_DOWN: 2,
      AREA_CHANGED: 1,
    });
    // the partial list removed nothing; d left on the 5th and was removed on the 6th (G = 2)
    expect(results[3].events.REMOVED).toBe(0);
    expect(results[4].events.REMOVED).toBe(0);
    expect(results[5].events.REMOVED).toBe(1);
    [{ id: projectId }] = await ctx.db.query<{ id: number }>(
      `select id from project where name = 'Проверка'`,
    );
  });
  afterAll(async () => app?.close());

  it('§10.2 stats: ALL counts «Свободные» and «Забронированы»; AVAILABLE leaves reserved lots out of everything', async () => {
    const all = (
      await post('/api/project/stats', { projectId, from: '2026-11-01', to: '2026-11-02' })
    ).json();
    const count = (s: { flatsCountList: { label: string; points: { count: number }[] }[] }, label: string) =>
      s.flatsCountList.find((x) => x.label === label)?.points.map((p) => p.count);
    expect(count(all, 'Все')).toEqual([4, 4]);
    expect(count(all, 'Свободные')).toEqual([3, 2]);
    expect(count(all, 'Забронированы')).toEqual([1, 2]);
    expect(all.allRoomsData.points[0].avgMeterPrice).toBe(
      Math.round(((8_000_000 + 10_000_000 + 12_000_000 + 9_000_000) / 195) * 100) / 100,
    );
    const free = await post('/api/project/stats', {
      projectId,
      from: '2026-11-01',
      to: '2026-11-02',
      status: 'AVAILABLE',
    });
    expect(free.statusCode).toBe(200);
    const available = free.json();
    expect(available.flatsCountList.map((s: { label: string }) => s.label)).toEqual([
      'Все',
      'Студии',
      '1-комн.',
      '2-комн.',
      '3+ комн.',
    ]);
    expect(count(available, 'Все')).toEqual([3, 2]);
    // on the 2nd only a (7.8 M, 40.5 m²) and d (9 M, 45 m²) are on sale
    expect(available.allRoomsData.points[1].avgMeterPrice).toBe(Math.round((16_800_000 / 85.5) * 100) / 100);
    expect(
      available.shortFlatSummaryList.reduce(
        (s: number, r: { activeFlatsCount: number }) => s + r.activeFlatsCount,
        0,
      ),
    ).toBe(2);
    expect(
      all.shortFlatSummaryList.reduce(
        (s: number, r: { activeFlatsCount: number }) => s + r.activeFlatsCount,
        0,
      ),
    ).toBe(4);
    // a different body, a different tag
    expect(free.headers.etag).not.toBe(
      (await post('/api/project/stats', { projectId, from: '2026-11-01', to: '2026-11-02' })).headers.etag,
    );
  });

  it('§10.2 discounts: AVAILABLE leaves the reserved lot that got cheaper out', async () => {
    const body = { period: 'DAY', date: '2026-11-02', projectId };
    const all = (await post('/api/discount', body)).json();
    expect(all.rows.map((r: { discountPercent: number }) => r.discountPercent)).toEqual([5, 2.5]);
    const free = (await post('/api/discount', { ...body, status: 'AVAILABLE' })).json();
    expect(free.rows.map((r: { discountPercent: number }) => r.discountPercent)).toEqual([2.5]);
    const perProject = (
      await post('/api/discount/project', { period: 'DAY', date: '2026-11-02', status: 'AVAILABLE' })
    ).json();
    expect(perProject.rows.find((r: { projectId: number }) => r.projectId === projectId)).toMatchObject({
      activeFlats: 2,
      discountedFlats: 1,
    });
    const bad = await post('/api/discount', { ...body, status: 'FREE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('status');
  });

  it('§10.3 AREA_CHANGED: in the price changes (filter by kind), the summaries and the flat card', async () => {
    const changes = (await get('/api/price-changes?from=2026-11-01&to=2026-11-06&kind=AREA_CHANGED')).json();
    expect(changes.total).toBe(1);
    expect(changes.rows[0]).toMatchObject({
      kind: 'AREA_CHANGED',
      date: '2026-11-02',
      area: 40.5,
      oldArea: 40,
    });
    const all = (await get('/api/price-changes?from=2026-11-02&to=2026-11-02&pageSize=500')).json();
    expect(all.rows.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'AREA_CHANGED',
      'PRICE_DOWN',
      'PRICE_DOWN',
    ]);
    const csv = await get('/api/price-changes.csv?from=2026-11-02&to=2026-11-02');
    expect(csv.body).toContain('Изменилась площадь');
    expect(csv.body).toContain(';40,00');

    const list = (await get('/api/summaries')).json() as {
      id: number;
      date: string;
      areaChanged: number;
      partial: boolean;
    }[];
    const day2 = list.find((s) => s.date === '2026-11-02')!;
    expect(day2.areaChanged).toBe(1);
    const project = (await get(`/api/summary/${day2.id}/project/${projectId}`)).json();
    expect(project.project.areaChanged).toBe(1);
    expect(project.events.map((e: { kind: string }) => e.kind)).toEqual([
      'PRICE_DOWN',
      'PRICE_DOWN',
      'AREA_CHANGED',
    ]);
    expect(project.events[2]).toMatchObject({ oldArea: 40, area: 40.5, changePercent: null });

    const [{ id: a }] = await ctx.db.query<{ id: number }>(
      `select id from flat where external_id = 'a' and project_id = $1`,
      [projectId],
    );
    const card = (await get(`/api/flat?flatId=${a}`)).json();
    expect(card.areaHistory).toEqual([
      { date: '2026-11-01', area: 40 },
      { date: '2026-11-02', area: 40.5 },
    ]);
  });

  it('§10.2 the flat card shows the status history: on sale, reserved, back on sale, not listed', async () => {
    const ids = await ctx.db.query<{ id: number; external_id: string }>(
      'select id, external_id from flat where project_id = $1',
      [projectId],
    );
    const id = (ext: string) => ids.find((f) => f.external_id === ext)!.id;
    const c = (await get(`/api/flat?flatId=${id('c')}`)).json();
    // c had no status on the 1st (on sale), reserved on the 2nd, on sale from the 3rd; the partial 4th
    // does not list it, which the log keeps as it was said
    expect(c.statusHistory).toEqual([
      { date: '2026-11-01', state: 'AVAILABLE' },
      { date: '2026-11-02', state: 'RESERVED' },
      { date: '2026-11-03', state: 'AVAILABLE' },
      { date: '2026-11-04', state: 'ABSENT' },
      { date: '2026-11-05', state: 'AVAILABLE' },
    ]);
    expect(c.record.listingStatus).toBe('AVAILABLE');
    const b = (await get(`/api/flat?flatId=${id('b')}`)).json();
    expect(b.record.listingStatus).toBe('RESERVED');
    expect(b.status).toBe('ACTIVE');
    const d = (await get(`/api/flat?flatId=${id('d')}`)).json();
    expect(d.status).toBe('REMOVED');
    expect(d.statusHistory.at(-1)).toEqual({ date: '2026-11-04', state: 'ABSENT' });
  });

  it('§10.4 a partial list keeps the lots it missed, is flagged in the summaries and the snapshot list', async () => {
    const stats = (
      await post('/api/project/stats', { projectId, from: '2026-11-04', to: '2026-11-04' })
    ).json();
    expect(stats.flatsCountList[0].points).toEqual([{ date: '2026-11-04', count: 4 }]);
    const list = (await get('/api/summaries')).json() as { id: number; date: string; partial: boolean }[];
    expect(list.filter((s) => s.partial).map((s) => s.date)).toEqual(['2026-11-04']);
    const day4 = list.find((s) => s.date === '2026-11-04')!;
    const project = (await get(`/api/summary/${day4.id}/project/${projectId}`)).json();
    expect(project.project.partial).toBe(true);
    expect(project.events.filter((e: { kind: string }) => e.kind === 'REMOVED')).toEqual([]);
    const quality = (await get(`/api/projects/${projectId}/quality`)).json();
    expect(quality.partialScans).toEqual([{ date: '2026-11-04', flats: 1, median: 4 }]);
    expect(quality.snapshotList.map((s: { date: string; partial: boolean }) => [s.date, s.partial])).toEqual([
      ['2026-11-06', false],
      ['2026-11-05', false],
      ['2026-11-04', true],
      ['2026-11-03', false],
      ['2026-11-02', false],
      ['2026-11-01', false],
    ]);
  });

  it('§10.4 `complete: true` overrides the rule: the short list is a real sell-out and removes what it misses', async () => {
    const res = await post('/api/ingest/snapshots', {
      ...list('2026-11-04', [lot('a', 40.5, 7_800_000, 'AVAILABLE')]),
      complete: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ status: 'replaced', partial: false });
    const stats = (
      await post('/api/project/stats', { projectId, from: '2026-11-04', to: '2026-11-05' })
    ).json();
    // b and c, missing once on the 4th, are bridged (G = 2); d never came back: inactive from the 4th (§4.1),
    // and removed as known on the 5th, its second miss
    expect(stats.flatsCountList[0].points).toEqual([
      { date: '2026-11-04', count: 3 },
      { date: '2026-11-05', count: 3 },
    ]);
    const removed = (await get('/api/price-changes?from=2026-11-01&to=2026-11-06&kind=REMOVED')).json();
    expect(removed.rows.map((r: { date: string }) => r.date)).toEqual(['2026-11-05']);
    const quality = (await get(`/api/projects/${projectId}/quality`)).json();
    expect(quality.partialScans).toEqual([]);
    expect(quality.snapshotList.find((s: { date: string }) => s.date === '2026-11-04')).toMatchObject({
      partial: false,
      complete: true,
    });
    const bad = await post('/api/ingest/snapshots', { ...list('2026-11-07', []), complete: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('complete');
  });
});
