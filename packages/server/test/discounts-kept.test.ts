import { DISCOUNT_BASES, DISCOUNT_PERIODS, STATS_STATUSES } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { describeEachDb } from './databases.js';
import { snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

// The market's discounts table reads each project's discounts kept on its last day (derive/latest.ts,
// migration 22) instead of every project's flats: the kept figures must be the ones the flats give, for
// every period, basis and status, and a project without them (kept before migration 22) is read as before.

const DAYS = 400;
const start = Date.UTC(2025, 8, 1);
const dateOf = (i: number) => new Date(start + i * 86_400_000).toISOString().slice(0, 10);

/** A project's lists: prices that move (down and up), an old price on some flats, reserved ones. */
function project(p: number, days: number[]) {
  return days.map((d) =>
    snap(
      dateOf(d),
      `Застройщик ${p % 2}`,
      `Проект ${p}`,
      Array.from({ length: 12 }, (_, i) => {
        const wave = Math.round(Math.sin((d + i * 7 + p) / 9) * 4) * 50_000;
        const price = 6_000_000 + i * 250_000 + wave - (d > 300 && i % 3 === 0 ? 300_000 : 0);
        return {
          id: `p${p}-${i}`,
          building: String(1 + (i % 2)),
          rooms: i % 4,
          area: 30 + i * 3.5,
          price,
          floor: 2 + i,
          status: i % 5 === 0 ? 'RESERVED' : 'AVAILABLE',
          ...(i % 4 === 1 ? { oldPrice: price + 400_000 + p * 10_000 } : {}),
        };
      }).filter((_, i) => (d + i) % 11 !== 0),
    ),
  );
}

describeEachDb("the market's discounts: kept figures equal the flats'", (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string>;
  const ask = (a: FastifyInstance, url: string, payload: object) =>
    a.inject({ method: 'POST', url, headers, payload });

  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    // three projects ending on the same last day, one ending earlier, daily to weekly lists
    const every = (step: number, end = DAYS) =>
      Array.from({ length: Math.floor(end / step) }, (_, i) => i * step);
    const lists = [
      project(1, every(1)),
      project(2, every(3)),
      project(3, every(7)),
      project(4, every(2, 380)),
    ];
    for (const l of lists) {
      // the year in several requests (one transaction each), as a collector sends it
      for (let at = 0; at < l.length; at += 60) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/ingest/snapshots',
          headers,
          payload: l.slice(at, at + 60),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    // the last lists of projects 1–3 on the same day
    for (const p of [2, 3]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/ingest/snapshots',
        headers,
        payload: project(p, [DAYS - 1]),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  }, 240_000);
  afterAll(async () => app?.close());

  it('for every period, basis and status, the table and the flat list are the same as from the flats', async () => {
    const kept = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from project_latest where discounts is not null',
    );
    expect(kept[0].n).toBe(4 * STATS_STATUSES.length);
    const answers = async (a: FastifyInstance) => {
      const out: unknown[] = [];
      for (const status of STATS_STATUSES)
        for (const period of DISCOUNT_PERIODS)
          for (const basis of DISCOUNT_BASES) {
            const table = await ask(a, '/api/discount/project', { period, basis, status });
            expect(table.statusCode, table.body).toBe(200);
            const lists = [];
            // the whole list, its head (read from the projects with the largest kept discounts), one room
            for (const more of [{ limit: 1000 }, { limit: 1 }, { limit: 3 }, { limit: 5, rooms: 1 }]) {
              const flats = await ask(a, '/api/discount', { period, basis, status, ...more });
              expect(flats.statusCode, flats.body).toBe(200);
              lists.push(flats.json());
            }
            out.push({ status, period, basis, table: table.json(), lists });
          }
      return out;
    };
    const fromKept = await answers(app);
    // something to compare: discounts of both bases on the last day
    const monthTable = (fromKept[4] as { table: { rows: { discountedFlats: number }[] } }).table.rows;
    expect(monthTable.some((r) => r.discountedFlats > 0)).toBe(true);
    // the table reads the kept figures: a kept value changed by hand is what it shows
    const [row] = await ctx.db.query<{ project_id: number; discounts: string }>(
      "select project_id, discounts from project_latest where status = 'ALL' and discounts is not null order by project_id limit 1",
    );
    const changed = JSON.parse(row.discounts);
    changed.MONTH.history.maxDiscountPercent = 99.99;
    await ctx.db.query("update project_latest set discounts = $2 where project_id = $1 and status = 'ALL'", [
      row.project_id,
      JSON.stringify(changed),
    ]);
    const probe = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    try {
      const rows = (await ask(probe, '/api/discount/project', { period: 'MONTH' })).json().rows;
      expect(rows.find((r: { projectId: number }) => r.projectId === row.project_id).maxDiscountPercent).toBe(
        99.99,
      );
    } finally {
      await probe.close();
    }
    // the same database without the kept figures, through another app (no cached answers)
    await ctx.db.query('update project_latest set discounts = null');
    const other = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    try {
      expect(await answers(other)).toEqual(fromKept);
    } finally {
      await other.close();
    }
  }, 120_000);
});
