import { marketPaceResponseSchema } from '@cena-metra/contract';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { bytes, decodeSpan, encodeSpan } from '../src/db/kept.js';
import { keptSpanBodies } from '../src/db/queries/market-spans.js';
import { Importer } from '../src/ingest/importer.js';
import { fromDay } from '../src/lib/days.js';
import { MarketReader } from '../src/read/market-reader.js';
import { membersVersion } from '../src/read/market-scopes.js';
import { ReadCache } from '../src/read/read-cache.js';
import { cliActor, commandHost, type Host } from '../src/use-cases/host.js';
import { applyImport } from '../src/use-cases/imports.js';
import { keepMarketSpans, keepMarketSpansLocked } from '../src/use-cases/market-spans.js';
import { rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { toSnapshot } from './kept-data.js';
import { clear, counting, importedMarket, keepAll, LIST_READ, placed } from './market-imported.js';
import { BASE, projectArb, shuffled } from './random-market.js';
import { signedInApp } from './signed-in-app.js';

// The market's pace and index kept per scope (DESIGN §11.1; use-cases/market-spans.ts): made by the rounds
// that follow imports, equal to a rebuild's bytes and to the union computed per request, never served
// for data newer than those it was made from.

const spans = async (db: Db) => (await keptSpanBodies(db)).map(({ members: _members, ...span }) => span);

describeEachDb('the market’s kept spans', (ctx) => {
  it('imports through the one door keep every scope’s span; a rebuild from the observations gives the same bytes', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(projectArb, { minLength: 2, maxLength: 4 }),
        fc.constantFrom(7, 31),
        fc.integer({ min: 0, max: 1000 }),
        async (projects, carry, seed) => {
          await clear(ctx.db);
          const importer = new Importer(ctx.db, 2, carry);
          const host: Host = {
            ...commandHost(ctx.db, importer),
            keepMarket: async () => void (await keepAll(ctx.db)),
          };
          const lists = projects.flatMap((snaps, p) => snaps.map((s) => placed(p, toSnapshot(p, s))));
          // one list or two at a time, in a random order: each import is followed by a round
          const order = shuffled(lists, seed);
          for (let i = 0; i < order.length; i += 1 + (i % 2))
            await applyImport(host, { snapshots: order.slice(i, i + 1 + (i % 2)) }, cliActor());
          const kept = await spans(ctx.db);
          // the whole market, two developers, two regions, two cities: × 10 filters
          const scopes = new Set(kept.map((s) => s.scope));
          expect(scopes.has('market')).toBe(true);
          // every project has a class by its price: the classes are kept scopes too
          expect([...scopes].some((s) => s.startsWith('class:'))).toBe(true);
          expect(kept.length).toBe(scopes.size * 10);
          await rebuildProjects(ctx.db, 2, undefined, undefined, carry);
          await keepAll(ctx.db);
          expect(await spans(ctx.db)).toEqual(kept);
          compared += kept.length;
        },
      ),
      { numRuns: ctx.kind === 'pglite' ? 6 : 4, seed: 20261126 },
    );
    expect(compared).toBeGreaterThan(100);
  });

  it('lists day after day bring the spans up to date from their members’ tails: the bytes of spans made whole', async () => {
    const made = { appended: 0, whole: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(projectArb, { minLength: 2, maxLength: 4 }),
        fc.constantFrom(7, 31),
        async (projects, carry) => {
          await clear(ctx.db);
          const importer = new Importer(ctx.db, 2, carry);
          const host: Host = {
            ...commandHost(ctx.db, importer),
            keepMarket: async () => {
              const report = await keepAll(ctx.db);
              // from each project's eighth list on, a change moves its summaries after their first weeks
              if (rounds++ < 7) return;
              made.appended += report.appended;
              made.whole += report.made - report.appended;
            },
          };
          let rounds = 0;
          // every project's first list at once, then the lists of each day as they come: two lists half a
          // year before (the tails begin after a project's first list), then one every 5 days
          const regular = projects.map((snaps) =>
            snaps.map((s, i) => ({ ...s, day: i < 2 ? BASE - 200 + 10 * i : BASE + 5 * i })),
          );
          const firsts = regular.map((snaps, p) => placed(p, toSnapshot(p, snaps[0])));
          await applyImport(host, { snapshots: firsts }, cliActor());
          const later = regular.flatMap((snaps, p) => snaps.slice(1).map((s) => placed(p, toSnapshot(p, s))));
          for (const day of [...new Set(later.map((l) => l.date))].sort())
            await applyImport(host, { snapshots: later.filter((l) => l.date === day) }, cliActor());
          const kept = await keptSpanBodies(ctx.db);
          await ctx.db.query('delete from market_span');
          await keepAll(ctx.db);
          expect(await keptSpanBodies(ctx.db)).toEqual(kept);
        },
      ),
      { numRuns: ctx.kind === 'pglite' ? 6 : 4, seed: 20261129 },
    );
    // a span is made whole then when its members are another set (a project's class moved)
    expect(made.appended).toBeGreaterThan(5 * made.whole);
  });

  it('each kept span is the union of its members made afresh, and a span made for older data is not served', async () => {
    await clear(ctx.db);
    const importer = new Importer(ctx.db, 2, 31);
    const [project] = fc.sample(projectArb, { numRuns: 1, seed: 7 });
    const lists = (p: number) => project.map((s) => placed(p, toSnapshot(p, { ...s, day: s.day + p })));
    const host = commandHost(ctx.db, importer);
    for (let p = 0; p < 3; p++) await applyImport(host, { snapshots: lists(p) }, cliActor());
    // the command's round keeps the whole market (every developer and place is smaller than kept)
    const kept = await keptSpanBodies(ctx.db);
    expect(new Set(kept.map((s) => s.scope))).toEqual(new Set(['market']));
    const reader = new MarketReader(new ReadCache());
    const members = await reader.projects(ctx.db);
    for (const row of kept) {
      const made = await new MarketReader(new ReadCache()).span(
        ctx.db,
        members,
        row.status as 'ALL',
        row.rooms as 'all',
      );
      expect(decodeSpan(bytes(row.body))).toEqual(made);
      expect(row.members).toBe(membersVersion(members));
    }
    // a fourth project imported without its round: the kept span is for the three, the answer for four
    await applyImport({ ...host, keepMarket: async () => {} }, { snapshots: lists(3) }, cliActor());
    const q = {
      from: fromDay(BASE - 10),
      to: fromDay(BASE + 400),
      status: 'ALL' as const,
      rooms: 'all' as const,
    };
    const answer = await new MarketReader(new ReadCache()).marketPace(ctx.db, q);
    expect(answer.projects).toBe(4);
    await ctx.db.query('delete from market_span');
    expect(await new MarketReader(new ReadCache()).marketPace(ctx.db, q)).toEqual(answer);
  });

  it('a round after one that left everything current reads nothing; a change, a span taken away, a new size do', async () => {
    await clear(ctx.db);
    const { host, lists } = await importedMarket(ctx.db, 5, 2);
    const first = await keepAll(ctx.db);
    expect(first.made).toBeGreaterThan(0);
    // the statements a round reads the market with: the list of projects, the spans' members
    const { db, reads, reset } = counting(
      ctx.db,
      new RegExp(`${LIST_READ.source}|from market_span\\b(?!\\))`),
    );
    const round = (min = 1) => keepMarketSpansLocked(db, new MarketReader(new ReadCache()), min);
    const again = await round();
    expect(reads()).toBe(0);
    expect(again).toMatchObject({ made: 0, kept: first.kept, links: { made: 0, kept: first.links.kept } });
    // a span taken away by hand: made again
    await ctx.db.query("delete from market_span where scope = 'market' and status = 'ALL' and rooms = 'all'");
    expect((await round()).made).toBe(1);
    expect(reads()).toBeGreaterThan(0);
    reset();
    expect((await round()).made).toBe(0);
    expect(reads()).toBe(0);
    // another size of the scopes kept: a round of its own
    const larger = await round(2);
    expect(reads()).toBeGreaterThan(0);
    expect(larger.kept).toBeLessThan(first.kept);
    // a new project's lists: every scope it is in made again
    reset();
    await applyImport(host, { snapshots: lists(2) }, cliActor());
    expect((await round()).made).toBeGreaterThan(0);
    expect(reads()).toBeGreaterThan(0);
  });

  it('a round lets the thread’s other work through between spans (PGlite’s queries never leave the loop)', async () => {
    await clear(ctx.db);
    const importer = new Importer(ctx.db, 2, 31);
    const [project] = fc.sample(projectArb, { numRuns: 1, seed: 11 });
    const host = { ...commandHost(ctx.db, importer), keepMarket: async () => {} };
    for (let p = 0; p < 3; p++)
      await applyImport(host, { snapshots: project.map((s) => placed(p, toSnapshot(p, s))) }, cliActor());
    const order: string[] = [];
    const round = keepMarketSpans(ctx.db, new MarketReader(new ReadCache()), {
      min: 1,
      onProgress: () => order.push('spans of a filter saved'),
    });
    // a request's callback, queued as the round starts: it runs before the round's first filter is done
    setImmediate(() => order.push('another task'));
    const report = await round;
    expect(report.made).toBeGreaterThan(0);
    expect(order[0]).toBe('another task');
  });

  it('a server’s round follows an import through the API, and a fresh server answers «Рынок»’s pace from the kept span', async () => {
    await clear(ctx.db);
    const { app, headers } = await signedInApp(ctx.db);
    // two projects of two developers in one region, four days of lists
    const lot = (id: string, price: number) => ({ id, building: '1', rooms: 1, area: 40, price });
    const payload = ['Восход', 'Закат'].flatMap((project, p) =>
      [1, 2, 3, 4].map((d) => ({
        date: `2026-01-0${d}`,
        developer: `Застройщик ${p}`,
        project,
        location: { region: 'Москва', city: 'Москва' },
        flats: [lot('a', 8_000_000 + d * 10_000 * p), ...(d < 3 ? [lot('b', 9_000_000)] : [])],
      })),
    );
    const res = await app.inject({ method: 'POST', url: '/api/ingest/snapshots', headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    await app.marketKeeper.idle();
    const [row] = (await keptSpanBodies(ctx.db)).filter((r) => r.status === 'ALL' && r.rooms === 'all');
    const members = await new MarketReader(new ReadCache()).projects(ctx.db);
    expect(row.members).toBe(membersVersion(members));
    await app.close();
    // the kept body marked (its first day's stock) under the same members: a fresh server's answer is it
    const span = decodeSpan(bytes(row.body));
    span.points[0] = { ...span.points[0], stock: 987_654 };
    await ctx.db.query(
      `update market_span set body = $1 where scope = 'market' and status = 'ALL' and rooms = 'all'`,
      [encodeSpan(span)],
    );
    const fresh = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    const body = { from: span.points[0].date, to: span.points.at(-1)!.date };
    const answer = await fresh.inject({ method: 'POST', url: '/api/market/pace', headers, payload: body });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(marketPaceResponseSchema.parse(answer.json()).points[0].stock).toBe(987_654);
    await fresh.close();
  });
});
