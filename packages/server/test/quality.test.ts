import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

// GET /api/projects/{id}/quality (issue 14): why a number looks odd, without opening a database.

const lots = (n: number, over: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({
    ...flat(`f${i}`, 1, 40, 8_000_000 + i * 10_000),
    settlementDate: '4 кв. 2026',
    status: 'AVAILABLE',
    ...over(i),
  }));

describeEachDb('data quality report', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let projectId = 0;
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db, { maxCarryDays: 31 }));
    const day = (date: string, flats: unknown[]) => snap(date, 'Пионер', 'Качество', flats);
    const res = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [
        day('2026-06-01', lots(10)),
        day('2026-06-02', lots(10)),
        day(
          '2026-06-03',
          lots(10, (i) => (i === 0 ? { area: 41 } : {})),
        ),
        // a scan that caught two lots of ten
        day('2026-06-04', lots(2)),
        // 43 days later, a list again: f9 reserved, f8 without a date, f7 at three times the price
        day(
          '2026-07-17',
          lots(10, (i) =>
            i === 9
              ? { status: 'RESERVED' }
              : i === 8
                ? { settlementDate: null }
                : i === 7
                  ? { price: 24_000_000 }
                  : i === 0
                    ? { area: 41 }
                    : {},
          ),
        ),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    [{ id: projectId }] = await ctx.db.query<{ id: number }>(
      `select id from project where name = 'Качество'`,
    );
  });
  afterAll(async () => app?.close());

  it('names the gaps, partial scans, area changes, outliers and shares of the last list', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/projects/${projectId}/quality`, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      projectId,
      projectName: 'Качество',
      maxCarryDays: 31,
      snapshots: { count: 5, first: '2026-06-01', last: '2026-07-17' },
      gaps: [{ after: '2026-06-04', before: '2026-07-17', days: 43 }],
      partialScans: [{ date: '2026-06-04', flats: 2, median: 10 }],
      snapshotList: [
        { date: '2026-07-17', flats: 10, partial: false, complete: false },
        { date: '2026-06-04', flats: 2, partial: true, complete: false },
        { date: '2026-06-03', flats: 10, partial: false, complete: false },
        { date: '2026-06-02', flats: 10, partial: false, complete: false },
        { date: '2026-06-01', flats: 10, partial: false, complete: false },
      ],
      areaChangedFlats: 1,
      ppmOutliers: 1,
      reservedPercent: 10,
      noSettlementPercent: 10,
    });
  });

  it('an unknown project is a 404, a bad id a 400 naming it; a guest is a 401', async () => {
    expect(
      (await app.inject({ method: 'GET', url: '/api/projects/99999/quality', headers })).statusCode,
    ).toBe(404);
    const bad = await app.inject({ method: 'GET', url: '/api/projects/abc/quality', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('id');
    expect((await app.inject({ method: 'GET', url: `/api/projects/${projectId}/quality` })).statusCode).toBe(
      401,
    );
  });
});
