import { MARKET_FIRST_VIEW_DAYS } from '@cena-metra/contract';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Db } from '../src/db/driver.js';
import { fromDay, toDay } from '../src/lib/days.js';
import { MarketReader } from '../src/read/market-reader.js';
import { RANK_CACHE_BYTES } from '../src/read/rank-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { cliActor } from '../src/use-cases/host.js';
import { applyImport } from '../src/use-cases/imports.js';
import {
  keepMarketSpansLocked,
  MarketKeeper,
  ROUNDS_SHARE,
  roundWait,
} from '../src/use-cases/market-spans.js';
import { describeEachDb, freshDb } from './databases.js';
import { clear, counting, importedMarket, LIST_READ, RANK_READ } from './market-imported.js';
import { signedInApp } from './signed-in-app.js';

// A server's keeper of the market (use-cases/market-spans.ts `MarketKeeper`): its rounds' pace, the list and
// «Рынок»'s first ranking held ahead of the requests, its failures told apart.

describeEachDb('a server’s market keeper', (ctx) => {
  it('a server holds the market’s list from its start and after each of its rounds: «Рынок»’s requests do not read it', async () => {
    await clear(ctx.db);
    const { host, lists } = await importedMarket(ctx.db, 7, 2);
    const { db, reads } = counting(ctx.db, LIST_READ);
    // the app made ready by its first request (a server by its listen): the list read as it got ready
    const { app, headers } = await signedInApp(db, {}, undefined, 'list-holder');
    expect(reads()).toBe(1);
    const days = lists(0)
      .map((s) => s.date)
      .sort();
    const index = () =>
      app.inject({
        method: 'POST',
        url: '/api/market/hedonic',
        headers,
        payload: { from: days[0], to: days.at(-1) },
      });
    const first = await index();
    expect(first.statusCode, first.body).toBe(200);
    expect(reads()).toBe(1);
    // another process (the CLI) imports a project and makes the round: the server's own round finds
    // nothing to make, and holds the list of the new data for the requests that come next
    await applyImport(host, { snapshots: lists(2) }, cliActor());
    await keepMarketSpansLocked(ctx.db, new MarketReader(new ReadCache()));
    app.marketKeeper.schedule();
    await app.marketKeeper.idle();
    expect(reads()).toBe(2);
    // (the server sees another process's data within a second: its version read again now)
    app.dataVersion.invalidate();
    const answer = await index();
    expect(answer.statusCode).toBe(200);
    expect(reads()).toBe(2);
    // the held list is the new one: the answer is what a fresh server says
    await app.close();
    const fresh = await signedInApp(ctx.db, {}, undefined, 'list-reader');
    const again = await fresh.app.inject({
      method: 'POST',
      url: '/api/market/hedonic',
      headers: fresh.headers,
      payload: { from: days[0], to: days.at(-1) },
    });
    expect(again.json()).toEqual(answer.json());
    await fresh.app.close();
    // a burst of imports whose next round waits its share of the thread (a minute here): the list of the
    // new data is read once the imports pause, before that round, for the requests that come meanwhile
    const reader = new MarketReader(new ReadCache());
    const keeper = new MarketKeeper(db, reader, () => {}, { pauseMs: 20, gapMs: 60_000 });
    keeper.schedule();
    await keeper.idle();
    const before = reads();
    await applyImport(host, { snapshots: lists(3) }, cliActor());
    keeper.schedule();
    expect(reads()).toBe(before);
    await new Promise((done) => setTimeout(done, 300));
    expect(reads()).toBe(before + 1);
    await reader.projects(db);
    expect(reads()).toBe(before + 1);
    await keeper.close();
  });

  it('a server holds «Рынок»’s first ranking from its start and once imports pause: its first request reads no month', async () => {
    await clear(ctx.db);
    const { host, lists } = await importedMarket(ctx.db, 11, 3);
    const { db, reads, reset } = counting(ctx.db, RANK_READ);
    const { app, headers } = await signedInApp(db, {}, undefined, 'rank-holder');
    await app.marketKeeper.idle();
    expect(reads()).toBeGreaterThan(0);
    // the first view: 90 days to the lists' last day (their days are long before today)
    const last = toDay(
      lists(0)
        .map((s) => s.date)
        .sort()
        .at(-1)!,
    );
    const view = (end: number) => ({ from: fromDay(end - MARKET_FIRST_VIEW_DAYS), to: fromDay(end) });
    const ranking = (payload: { from: string; to: string }) =>
      app.inject({ method: 'POST', url: '/api/market', headers, payload });
    reset();
    const period = view(last);
    const first = await ranking(period);
    expect(first.statusCode, first.body).toBe(200);
    expect(reads()).toBe(0);
    // what a reader with nothing held computes
    const computed = await new MarketReader(new ReadCache()).market(ctx.db, { ...period, status: 'ALL' });
    expect(first.json()).toEqual(JSON.parse(JSON.stringify(computed)));
    expect(computed.projects.length).toBe(3);
    // another process imports a day: the server's round, then the months of the new data held
    const next = lists(1).map((s) => ({ ...s, date: fromDay(last + 1) }));
    await applyImport(host, { snapshots: [next.at(-1)!] }, cliActor());
    app.dataVersion.invalidate();
    reset();
    app.marketKeeper.schedule();
    await app.marketKeeper.idle();
    expect(reads()).toBeGreaterThan(0);
    reset();
    const after = await ranking(view(last + 1));
    expect(after.statusCode, after.body).toBe(200);
    expect(reads()).toBe(0);
    const recomputed = await new MarketReader(new ReadCache()).market(ctx.db, {
      ...view(last + 1),
      status: 'ALL',
    });
    expect(after.json()).toEqual(JSON.parse(JSON.stringify(recomputed)));
    expect(after.json()).not.toEqual(first.json());
    await app.close();
    // a ranking asked while the months are being held waits for them: read once, not twice
    const alone = counting(ctx.db, RANK_READ);
    await new MarketReader(new ReadCache()).holdFirstRanking(alone.db, fromDay(last + 1));
    const both = counting(ctx.db, RANK_READ);
    const reader = new MarketReader(new ReadCache());
    const holding = reader.holdFirstRanking(both.db, fromDay(last + 1));
    const asked = await reader.market(both.db, { ...view(last + 1), status: 'ALL' });
    await holding;
    expect(both.reads()).toBe(alone.reads());
    expect(asked).toEqual(recomputed);
    // two holds at once (a server's start and its first round's end): the second reads nothing
    const twice = counting(ctx.db, RANK_READ);
    const again = new MarketReader(new ReadCache());
    await Promise.all([0, 1].map(() => again.holdFirstRanking(twice.db, fromDay(last + 1))));
    expect(twice.reads()).toBe(alone.reads());
    // the projects' pages opened before «Рынок»'s first request (values past the whole cache's budget) do
    // not push out the months held for it: they have a share of the cache of their own
    // — nor what its ranking made of them (its projects' day figures, its unions' day sums): the request
    // holds nothing more than the read ahead did
    const cache = new ReadCache(8 << 20);
    const paged = new MarketReader(cache);
    await paged.holdFirstRanking(ctx.db, fromDay(last + 1));
    const ranked = cache.part('rank', RANK_CACHE_BYTES);
    const made = ranked.bytes;
    for (let i = 0; i < 16; i++) cache.set(`stats:${i}`, 1, i, () => 1 << 20);
    const later = counting(ctx.db, RANK_READ);
    expect(await paged.market(later.db, { ...view(last + 1), status: 'ALL' })).toEqual(recomputed);
    expect(later.reads()).toBe(0);
    expect(made).toBeGreaterThan(0);
    expect(ranked.bytes).toBe(made);
  });
});

it('a burst of imports gives its rounds at most their share of the thread; a quiet server’s round waits its pause', () => {
  const base = { pauseMs: 2000, gapMs: 30_000 };
  // the first change: the pause alone
  expect(roundWait({ ...base, now: 1_000_000, lastEnd: 0, lastMs: 0 })).toBe(2000);
  // a short round: the gap from its end
  expect(roundWait({ ...base, now: 1_000_000, lastEnd: 1_000_000, lastMs: 500 })).toBe(30_000);
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 600_000 }),
      fc.integer({ min: 0, max: 900_000 }),
      fc.integer({ min: 0, max: 100_000 }),
      (lastMs, since, pauseMs) => {
        const now = 10_000_000;
        const wait = roundWait({ now, lastEnd: now - since, lastMs, pauseMs, gapMs: 30_000 });
        expect(wait).toBeGreaterThanOrEqual(pauseMs);
        // the round, the next one's start from its end: its time over the whole at most the share
        const idle = since + wait;
        expect(lastMs / (lastMs + idle)).toBeLessThanOrEqual(ROUNDS_SHARE + 1e-9);
        expect(idle).toBeGreaterThanOrEqual(30_000);
        // and no longer than both rules ask
        expect(wait).toBeLessThanOrEqual(
          Math.max(pauseMs, (lastMs * (1 - ROUNDS_SHARE)) / ROUNDS_SHARE + 30_000),
        );
      },
    ),
  );
});

it('a server’s keeper tells a failed round from a list not read after a round that ended', async () => {
  const { db, drop } = await freshDb('pglite');
  try {
    const failing = (failAt: number) => {
      let calls = 0;
      const market = new MarketReader(new ReadCache(1 << 20));
      const read = market.projects.bind(market);
      market.projects = (d: Db) => (++calls === failAt ? Promise.reject(new Error('чтение')) : read(d));
      return market;
    };
    for (const [failAt, what] of [
      [1, 'round'],
      [2, 'list'],
    ] as const) {
      const errors: string[] = [];
      const keeper = new MarketKeeper(db, failing(failAt), (_e, w) => errors.push(w), { pauseMs: 0 });
      // a first round reads the list itself (nothing kept yet), then the keeper reads it for the requests
      keeper.schedule();
      await keeper.idle();
      expect(errors).toEqual([what]);
      await keeper.close();
      await db.query("delete from app_meta where key = 'market_round'");
    }
  } finally {
    await drop();
  }
});
