import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryPlan } from '../src/collect/registry-collector.js';
import { addSource } from '../src/collect/sources.js';
import { cliActor } from '../src/db/queries/audit.js';
import { latestState } from '../src/db/queries/registry.js';
import { type Source, sourceRunRows } from '../src/db/queries/sources.js';
import { Importer } from '../src/ingest/importer.js';
import { collectDay, collectSources } from '../src/use-cases/collect.js';
import { commandHost } from '../src/use-cases/host.js';
import { describeEachDb } from './databases.js';

// the registry these tests collect is served on this machine: allowed as an operator allows an intranet host
// (DESIGN §11.5); a redirect elsewhere is still refused (below)
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

// DESIGN §12.3: a source of kind `domrf` — regions paged, throttled, the detail and the sales of objects due
// only — against a registry served on loopback by the test, its answers made here.

interface FakeObject {
  objId: number;
  region: string;
  ready: string;
  realised: number;
}

/** A registry on loopback: lists by region paged by offset/limit, an object's detail and sales. */
class FakeRegistry {
  server!: Server;
  base = '';
  objects: FakeObject[] = [];
  /** objects whose detail answers 500 */
  broken = new Set<number>();
  asked: { path: string; at: number }[] = [];
  /** where a list request is sent instead (a redirect) */
  redirectList: string | null = null;

  entry = (o: FakeObject) => ({
    objId: o.objId,
    objCommercNm: `ЖК Тест ${o.objId}`,
    objAddr: `г. Город, корп. ${o.objId % 10}`,
    latitude: 55 + o.objId / 1000,
    longitude: 37,
    objElemLivingCnt: 100,
    objReady100PercDt: o.ready,
    objPublDt: '2025-01-15',
    rpdRegionCd: Number(o.region),
    developer: { devId: 7, shortName: 'ООО «СЗ Тест»', devInn: '7700000007' },
  });

  async start() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      this.asked.push({ path: decodeURIComponent(`${url.pathname}${url.search}`), at: Date.now() });
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = decodeURIComponent(url.pathname);
      if (path === '/сервисы/api/kn/object') {
        if (this.redirectList) return res.writeHead(302, { location: this.redirectList }).end();
        const of = this.objects.filter((o) => o.region === url.searchParams.get('place'));
        const offset = Number(url.searchParams.get('offset'));
        const limit = Number(url.searchParams.get('limit'));
        return json({ data: { total: of.length, list: of.slice(offset, offset + limit).map(this.entry) } });
      }
      const m = /^\/сервисы\/api\/object\/(\d+)(\/sales_agg)?$/.exec(path);
      const o = m && this.objects.find((x) => x.objId === Number(m[1]));
      if (!o) return res.writeHead(404).end();
      if (m[2]) return json({ data: { apartmentsAggData: { total: 100, realised: o.realised } } });
      if (this.broken.has(o.objId)) return res.writeHead(500).end('busy');
      return json({
        data: {
          objId: o.objId,
          objReady100PercDt: o.ready,
          objLkClassDesc: 'Комфорт',
          soldOutPerc: o.realised,
        },
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(done));
  }

  /** The objects whose detail was asked since `from` (an index into `asked`). */
  detailsAsked(from: number) {
    return this.asked
      .slice(from)
      .map((a) => /^\/сервисы\/api\/object\/(\d+)$/.exec(a.path)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }
}

const reg = new FakeRegistry();
beforeAll(() => reg.start());
afterAll(() => reg.stop());

const CLI = cliActor();
const fast = { ratePerSecond: 200, pageSize: 2, backoffMs: 5, retries: 0, timeoutMs: 2_000 };

describe('the registry source’s plan', () => {
  it('takes the regions from place (repeated or comma-separated); no place is the whole country', () => {
    const p = registryPlan('https://наш.дом.рф/сервисы/api/kn/object?place=77,50&place=78&sortField=x');
    expect(p.places).toEqual(['77', '50', '78']);
    const list = new URL(p.list('50', 200, 100));
    expect(decodeURIComponent(list.pathname)).toBe('/сервисы/api/kn/object');
    expect(Object.fromEntries(list.searchParams)).toMatchObject({
      place: '50',
      offset: '200',
      limit: '100',
      sortField: 'x',
      objStatus: '0',
      residentialBuildings: '1',
    });
    expect(decodeURIComponent(new URL(p.detail(51234)).pathname)).toBe('/сервисы/api/object/51234');
    expect(decodeURIComponent(new URL(p.sales(51234)).pathname)).toBe('/сервисы/api/object/51234/sales_agg');
    expect(registryPlan('https://example.ru/сервисы/api').places).toEqual([null]);
  });
});

describeEachDb('a domrf source collected', (ctx) => {
  let source: Source;
  const host = () => commandHost(ctx.db, new Importer(ctx.db, 2));
  const ids = [1, 2, 3, 4, 5, 6, 7, 8];

  it('day 1: every region page by page, the detail and the sales of every new object, one door', async () => {
    reg.objects = ids.map((objId) => ({
      objId,
      region: objId <= 5 ? '77' : '50',
      ready: '2027-06-30',
      realised: objId * 3,
    }));
    source = await addSource(ctx.db, {
      name: 'Реестр',
      kind: 'domrf',
      url: `${reg.base}/сервисы/api/kn/object?place=77,50`,
    });
    const from = reg.asked.length;
    const [{ run }] = await collectSources(host(), [source], '2026-11-01', CLI, fast);
    // 77: 5 objects in pages of 2 (3 pages), 50: 3 (2 pages); 8 details, 8 sales
    expect(run).toMatchObject({
      status: 'done',
      flats: 8,
      pages: 5 + 16,
      snapshots: 8,
      partial: 0,
      error: null,
    });
    expect(reg.detailsAsked(from)).toEqual(ids);
    const lists = reg.asked.slice(from).filter((a) => a.path.includes('/kn/object'));
    expect(lists.map((a) => new URL(a.path, 'http://x').searchParams.get('offset'))).toEqual([
      '0',
      '2',
      '4',
      '0',
      '2',
    ]);
    const state = (await latestState(ctx.db, 4)) as { eff: Record<string, unknown> };
    expect(state.eff).toMatchObject({
      ready: { day: '2027-06-30' },
      salesRealised: 12,
      classRaw: 'Комфорт',
    });
    const [last] = await sourceRunRows(ctx.db, source.id, 1);
    expect(last).toMatchObject({ status: 'done', flats: 8, partial: 0 });
    const audited = await ctx.db.query<{ action: string }>(
      "select action from audit_log where action in ('registry.import', 'collect.run') order by id",
    );
    expect(audited.map((a) => a.action)).toEqual(['registry.import', 'collect.run']);
  });

  it('day 2: only changed objects are asked; one that fails is named, the rest kept', async () => {
    reg.objects[1].ready = '2027-12-31'; // objId 2 postponed
    reg.objects[6].ready = '2028-03-31'; // objId 7 postponed, its detail fails
    reg.broken.add(7);
    const from = reg.asked.length;
    const [{ run }] = await collectSources(host(), [source], '2026-11-02', CLI, fast);
    expect(reg.detailsAsked(from)).toEqual([2, 7]);
    expect(run.status).toBe('done');
    expect(run.partial).toBe(1);
    expect(run.error).toMatch(/объект 7/);
    // objId 7's new date came with the list, kept though its detail did not come
    const seven = (await latestState(ctx.db, 7)) as { eff: Record<string, unknown> };
    expect(seven.eff).toMatchObject({ ready: { day: '2028-03-31' } });
    const two = (await latestState(ctx.db, 2)) as { detail: Record<string, unknown> };
    expect(two.detail).toMatchObject({ ready: { day: '2027-12-31' } });
  });

  it('day 3: the failed object is asked again (nothing changed in the lists), no other', async () => {
    reg.broken.clear();
    const from = reg.asked.length;
    const [{ run }] = await collectSources(host(), [source], '2026-11-03', CLI, fast);
    expect(reg.detailsAsked(from)).toEqual([7]);
    expect(run).toMatchObject({ status: 'done', partial: 0 });
    const seven = (await latestState(ctx.db, 7)) as { detail: Record<string, unknown> };
    expect(seven.detail).toMatchObject({ ready: { day: '2028-03-31' } });
  });

  it('a second run on one day asks nothing again; a week after an object’s detail it is asked again', async () => {
    let from = reg.asked.length;
    await collectSources(host(), [source], '2026-11-03', CLI, fast);
    expect(reg.detailsAsked(from)).toEqual([]);
    from = reg.asked.length;
    // day 8: the details of day 1 are a week old; objId 2's (day 2) and 7's (day 3) are not
    await collectSources(host(), [source], '2026-11-08', CLI, fast);
    expect(reg.detailsAsked(from)).toEqual([1, 3, 4, 5, 6, 8]);
  });

  it('the daily collection runs it like any source; a redirect inside the network is refused', async () => {
    reg.redirectList = 'http://10.0.0.1/api/kn/object';
    const from = reg.asked.length;
    try {
      const report = await collectDay(host(), [source], '2026-11-09', fast);
      expect(report).toMatchObject({ sources: 1, failed: 1 });
    } finally {
      reg.redirectList = null;
    }
    // only the first page of each region was asked, no detail
    expect(reg.detailsAsked(from)).toEqual([]);
    const [last] = await sourceRunRows(ctx.db, source.id, 1);
    expect(last.status).toBe('failed');
    expect(last.error).toMatch(/10\.0\.0\.1/);
  });
});

describe('the pace of a domrf source', () => {
  it('asks at most two requests a second by default', async () => {
    const { freshDb } = await import('./databases.js');
    const { db, drop } = await freshDb('pglite');
    try {
      reg.objects = [{ objId: 900, region: '77', ready: '2027-06-30', realised: 1 }];
      const s = await addSource(db, {
        name: 'Медленно',
        kind: 'domrf',
        url: `${reg.base}/сервисы/api/kn/object?place=77`,
      });
      const from = reg.asked.length;
      const running = collectSources(commandHost(db, new Importer(db, 2)), [s], '2026-11-01', CLI, {
        retries: 0,
      });
      // while it runs, its record says how far it got («Источники» shows it)
      let seen: { status: string; pages: number } | undefined;
      for (let i = 0; i < 100 && !seen; i++) {
        const [row] = await sourceRunRows(db, s.id, 1);
        if (row?.status === 'running' && row.pages > 0) seen = row;
        else await new Promise((r) => setTimeout(r, 20));
      }
      await running;
      expect(seen?.pages).toBeGreaterThanOrEqual(1);
      const [done] = await sourceRunRows(db, s.id, 1);
      expect(done).toMatchObject({ status: 'done', pages: 3, flats: 1 });
      const times = reg.asked.slice(from).map((a) => a.at);
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(490);
    } finally {
      await drop();
    }
  });
});
