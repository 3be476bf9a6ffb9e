import { expect, it } from 'vitest';
import { fitSums } from '../src/analytics/hedonic.js';
import { HEDONIC_WINDOW } from '../src/analytics/hedonic-index.js';
import { ROOM_GROUP_BLOCKS_OF, sumsOfGroups } from '../src/analytics/hedonic-observations.js';
import type { Db } from '../src/db/driver.js';
import { bytes, decodeFairFit, decodeLinks, encodeFairFit, encodeLinks } from '../src/db/kept.js';
import { hedonicMonths } from '../src/db/queries/hedonic.js';
import { keptLinkBodies } from '../src/db/queries/hedonic-links.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { FairReader } from '../src/read/fair-reader.js';
import { HedonicReader } from '../src/read/hedonic-reader.js';
import { MarketReader } from '../src/read/market-reader.js';
import { membersVersion } from '../src/read/market-scopes.js';
import { ReadCache } from '../src/read/read-cache.js';
import { fairFitScope, hedonicScopes, linksOfMonths } from '../src/use-cases/hedonic-links.js';
import { cliActor, commandHost, type Host } from '../src/use-cases/host.js';
import { applyImport } from '../src/use-cases/imports.js';
import { keepMarketSpansLocked } from '../src/use-cases/market-spans.js';
import { rebuildProjects } from '../src/use-cases/rebuild.js';
import { describeEachDb } from './databases.js';
import { generateMarket, marketLists } from './hedonic-market.js';
import { PROJECT_TABLES } from './kept-data.js';

// The hedonic index's links kept per segment and rooms group (DESIGN §12.4, use-cases/hedonic-links.ts):
// made by the market's rounds after imports, equal to the links fitted per request from the projects' kept
// months and to a rebuild's bytes, never served for data newer than those they were made from.

const START = (2025 - 1970) * 12;
const CITIES = ['Москва', 'Казань'];
const market = generateMarket({
  seed: 5,
  months: 15,
  cities: [
    { trend: 0.006, level: Math.log(280_000) + 0.7 },
    { trend: -0.002, level: Math.log(170_000) + 0.7 },
  ],
  projectsPerCity: 3,
  flatsPerProject: 40,
  launchMonth: 8,
});
const LISTS = marketLists(market, START, CITIES).map((l, i) =>
  validateSnapshot(l, { file: 'market', at: `#${i}` }),
);
const PERIOD = { from: '2025-01-01', to: '2026-03-31' };

/** Every scope of any size kept (the rounds of these tests). */
const keepAll = (db: Db) => keepMarketSpansLocked(db, new MarketReader(new ReadCache()), 1);

describeEachDb('the hedonic index’s kept links', (ctx) => {
  const load = async (lists: typeof LISTS, round = true) => {
    const host: Host = {
      ...commandHost(ctx.db, new Importer(ctx.db, 2, 31)),
      keepMarket: async () => void (round && (await keepAll(ctx.db))),
    };
    for (let i = 0; i < lists.length; i += 30)
      await applyImport(host, { snapshots: lists.slice(i, i + 30) }, cliActor());
  };

  /** Every kept row against a fit of every window of its members' months (the same doubles); their links. */
  const expectFresh = async (except?: { scope: string; rooms: string; period: number }) => {
    const projects = await new MarketReader(new ReadCache()).projects(ctx.db);
    const scopes = hedonicScopes(projects, 1);
    const kept = await keptLinkBodies(ctx.db);
    expect(kept.length).toBe(scopes.size * 5);
    let links = 0;
    let fits = 0;
    for (const row of kept) {
      const members = scopes.get(row.scope)!;
      expect(row.members).toBe(membersVersion(members));
      const months = await hedonicMonths(
        ctx.db,
        members.map((p) => p.id),
        0,
        12_000,
      );
      const fresh = linksOfMonths(
        months.map((m) => sumsOfGroups(m, ROOM_GROUP_BLOCKS_OF[row.rooms as 'all'])),
      );
      const read = decodeLinks(bytes(row.body));
      if (except && row.scope === except.scope && row.rooms === except.rooms) {
        const at = read.findIndex((l) => l.period === except.period);
        expect(read[at]).not.toEqual(fresh[at]);
        read[at] = fresh[at];
      }
      expect(encodeLinks(read).equals(encodeLinks(fresh))).toBe(true);
      links += read.length;
      // the market's, a region's and a city's all-rooms row: its latest window's fit, as fitted afresh
      if (fairFitScope(row.scope, row.rooms)) {
        const last = Math.max(...months.map((m) => m.period));
        const made = fitSums(
          months.map((m) => sumsOfGroups(m, ROOM_GROUP_BLOCKS_OF.all)),
          last - HEDONIC_WINDOW + 1,
          last,
        );
        expect(bytes(row.fit!).equals(encodeFairFit(last, made!))).toBe(true);
        fits++;
      } else expect(row.fit).toBeNull();
    }
    // the market and its two cities (the lists name no region)
    expect(fits).toBe(3);
    return links;
  };

  it('every kept scope and rooms group holds the links fitted from its members’ months; a rebuild gives the same bytes', async () => {
    await ctx.db.query(`truncate hedonic_link, market_span, ${PROJECT_TABLES} restart identity cascade`);
    await load(LISTS);
    const kept = await keptLinkBodies(ctx.db);
    const projects = await new MarketReader(new ReadCache()).projects(ctx.db);
    const scopes = hedonicScopes(projects, 1);
    // the whole market, both cities, the classes; no developer: × 5 rooms groups
    expect(scopes.has('market')).toBe(true);
    expect(scopes.has('city:москва') && scopes.has('city:казань')).toBe(true);
    expect([...scopes.keys()].some((s) => s.startsWith('developer:'))).toBe(false);
    expect(kept.map((r) => `${r.scope}/${r.rooms}`).sort()).toEqual(
      [...scopes.keys()]
        .flatMap((s) => ['all', 'one', 'studio', 'threeAndMore', 'two'].map((r) => `${s}/${r}`))
        .sort(),
    );
    // every row as a fit of every window of its members' months, to the bit
    expect(await expectFresh()).toBeGreaterThan(100);
    // the market's and the cities' all-rooms rows have a link a month
    const market15 = decodeLinks(bytes(kept.find((r) => r.scope === 'market' && r.rooms === 'all')!.body));
    expect(market15.map((l) => l.period)).toEqual(Array.from({ length: 15 }, (_, i) => START + i));
    await rebuildProjects(ctx.db, 2, undefined, undefined, 31);
    await keepAll(ctx.db);
    // the same bodies (the members' data versions are new: a rebuild bumps them)
    const bodies = (rows: typeof kept) => rows.map(({ members: _members, ...row }) => row);
    expect(bodies(await keptLinkBodies(ctx.db))).toEqual(bodies(kept));
  }, 180_000);

  it('a round fits again only the windows whose months an import rewrote; a late list refits from its month on', async () => {
    await ctx.db.query(`truncate hedonic_link, market_span, ${PROJECT_TABLES} restart identity cascade`);
    // project 1's list of the ninth month comes late
    const late = LISTS.find((l) => l.project === 'Проект 1' && l.date === '2025-09-15')!;
    expect(late).toBeDefined();
    await load(LISTS.filter((l) => l.date < '2026-03-01' && l !== late));
    await expectFresh();
    // a link of an early window marked: a round that fitted it again would put the fitted one back
    const where = `where scope = 'market' and rooms = 'all'`;
    const [row] = await ctx.db.query<{ body: Uint8Array }>(`select body from hedonic_link ${where}`);
    const marked = decodeLinks(row.body);
    marked[2] = { ...marked[2], change: 0.25 };
    await ctx.db.query(`update hedonic_link set body = $1 ${where}`, [encodeLinks(marked)]);
    const stamps = () =>
      ctx.db.query<{ m: string; stamp: number }>(
        `select project_id || '/' || month as m, stamp from hedonic_month`,
      );
    /** The months of the market (0 = START) from the first one an import rewrote. */
    const rewrittenFrom = async (before: { m: string; stamp: number }[]) => {
      const was = new Map(before.map((r) => [r.m, r.stamp]));
      const months = (await stamps())
        .filter((r) => was.get(r.m) !== r.stamp)
        .map((r) => r.m.split('/')[1])
        .sort();
      const [y, m] = months[0].split('-').map(Number);
      return (y - 1970) * 12 + m - 1 - START;
    };
    // the last month: every project's latest months rewritten (as far back as the import's change reaches)
    const before = await stamps();
    await load(
      LISTS.filter((l) => l.date >= '2026-03-01'),
      false,
    );
    const from = await rewrittenFrom(before);
    expect(from).toBeGreaterThan(2);
    const report = (await keepAll(ctx.db)).links;
    expect(report.made).toBe(report.kept);
    expect(report.refit).toBe((15 - from) * report.made);
    expect(report.windows).toBe(15 * report.made);
    await expectFresh({ scope: 'market', rooms: 'all', period: marked[2].period });
    // the late list rewrites project 1's months before it and after: the windows of its scopes from there
    const beforeLate = await stamps();
    await load([late], false);
    const lateFrom = await rewrittenFrom(beforeLate);
    // as far back as the import's change reaches (a month before the list's at least), after the marked link
    expect(lateFrom).toBeLessThanOrEqual(7);
    expect(lateFrom).toBeGreaterThan(2);
    const after = (await keepAll(ctx.db)).links;
    // the rows of project 1's scopes (the market, its city, its class) made again, from the late month on
    expect(after.made).toBeGreaterThanOrEqual(3 * 5);
    expect(after.made).toBeLessThan(after.kept);
    expect(after.refit).toBe(after.made * (15 - lateFrom));
    // the marked window lies before the late month: still as kept; every other link as fitted afresh
    await expectFresh({ scope: 'market', rooms: 'all', period: marked[2].period });
    // a rebuild makes every row anew (no window taken as kept)
    await rebuildProjects(ctx.db, 2, undefined, undefined, 31);
    await keepAll(ctx.db);
    await expectFresh();
  }, 180_000);

  it('«Рынок»’s index reads a kept row while its members’ data are those it was made from, and fits its own after', async () => {
    await ctx.db.query(`truncate hedonic_link, market_span, ${PROJECT_TABLES} restart identity cascade`);
    const last = LISTS.filter((l) => l.date >= '2026-03-01');
    await load(LISTS.filter((l) => l.date < '2026-03-01'));
    const q = { ...PERIOD, city: 'Москва', rooms: 'all' as const };
    const computed = async () => {
      const saved = await ctx.db.query('select * from hedonic_link');
      await ctx.db.query('delete from hedonic_link');
      const answer = await new HedonicReader(new ReadCache()).index(ctx.db, q);
      for (const r of saved as { scope: string; rooms: string; members: string; body: Uint8Array }[])
        await ctx.db.query('insert into hedonic_link (scope, rooms, members, body) values ($1, $2, $3, $4)', [
          r.scope,
          r.rooms,
          r.members,
          Buffer.from(r.body),
        ]);
      return answer;
    };
    const answer = await new HedonicReader(new ReadCache()).index(ctx.db, q);
    expect(answer.points.length).toBe(14);
    expect(answer).toEqual(await computed());
    // the kept row marked (a link's change) under the same members: a fresh reader's answer is it
    const [row] = await ctx.db.query<{ body: Uint8Array }>(
      `select body from hedonic_link where scope = 'city:москва' and rooms = 'all'`,
    );
    const links = decodeLinks(row.body);
    links[5] = { ...links[5], change: 0.5 };
    await ctx.db.query(`update hedonic_link set body = $1 where scope = 'city:москва' and rooms = 'all'`, [
      encodeLinks(links),
    ]);
    const marked = await new HedonicReader(new ReadCache()).index(ctx.db, q);
    expect(marked.points[5].change).toBe(Math.round((Math.exp(0.5) - 1) * 10_000) / 100);
    // the last month imported without its round: the row is for older data, the answer fitted afresh
    await load(last, false);
    const after = await new HedonicReader(new ReadCache()).index(ctx.db, q);
    expect(after.points.length).toBe(15);
    expect(after.points[5]).toEqual(answer.points[5]);
    expect(after).toEqual(await computed());
    // and the next round keeps it
    await keepAll(ctx.db);
    const [again] = await ctx.db.query<{ body: Uint8Array }>(
      `select body from hedonic_link where scope = 'city:москва' and rooms = 'all'`,
    );
    expect(decodeLinks(again.body)).toHaveLength(15);
    expect(linksOfMonths([])).toEqual([]);
  }, 180_000);

  it('a flat’s fair price reads its city’s fit kept by the round while it is for the city’s data; a round keeps a fit whose window is as kept', async () => {
    await ctx.db.query(`truncate hedonic_link, market_span, ${PROJECT_TABLES} restart identity cascade`);
    await load(LISTS);
    // a flat on sale in Москва (its projects' lists name their city)
    const [{ id }] = await ctx.db.query<{ id: number }>(
      `select s.flat_id as id from flat_segment s join project p on p.id = s.project_id
       where p.city = 'Москва' and s.start_day <= p.last_snapshot_date
         and (s.end_day is null or s.end_day >= p.last_snapshot_date)
       order by s.flat_id limit 1`,
    );
    const fair = () => new FairReader(new ReadCache(), 31).fair(ctx.db, id);
    const city = `where scope = 'city:москва' and rooms = 'all'`;
    const [{ fit, members }] = await ctx.db.query<{ fit: Uint8Array; members: string }>(
      `select fit, members from hedonic_link ${city}`,
    );
    const answer = await fair();
    expect(answer.segment).toBe('Москва');
    // without the kept fits the reader fits the window itself: the same answer
    await ctx.db.query('update hedonic_link set fit = null');
    expect(await fair()).toEqual(answer);
    // the city's kept fit marked (its last month's δ + 0.1): a fresh reader prices the flat by it
    const kept = decodeFairFit(fit);
    const last = Math.max(...kept.fit.delta.keys());
    kept.fit.delta.set(last, kept.fit.delta.get(last)! + 0.1);
    const marked = encodeFairFit(kept.month, kept.fit);
    await ctx.db.query(`update hedonic_link set fit = $1 ${city}`, [marked]);
    const priced = await fair();
    expect(priced.fairPrice / answer.fairPrice).toBeCloseTo(Math.exp(0.1), 4);
    // a fit made from other members' data is not read
    await ctx.db.query(`update hedonic_link set members = 'другие' ${city}`);
    expect(await fair()).toEqual(answer);
    // the round makes the city's rows again (a row's members moved) but their windows are as kept: nothing is
    // fitted, the fit taken as is
    const report = (await keepAll(ctx.db)).links;
    expect(report).toMatchObject({ made: 5, refit: 0 });
    const [row] = await ctx.db.query<{ fit: Uint8Array; members: string }>(
      `select fit, members from hedonic_link ${city}`,
    );
    expect(row.members).toBe(members);
    expect(Buffer.from(row.fit).equals(marked)).toBe(true);
    expect((await fair()).fairPrice).toBe(priced.fairPrice);
  }, 180_000);
});
