import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type MarketMapResponse,
  marketMapResponseSchema,
  priceClassIn,
  registryMarketResponseSchema,
} from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { bytes, decodeSpan, encodeSpan } from '../src/db/kept.js';
import { keptSpanBodies } from '../src/db/queries/market-spans.js';
import { addUser } from '../src/db/queries/users.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { readRegistryFile, type SavedAnswer } from '../src/registry/files.js';
import { cliActor } from '../src/use-cases/host.js';
import { keepMarketSpansLocked } from '../src/use-cases/market-spans.js';
import { rebuildIfMarked } from '../src/use-cases/rebuild.js';
import { applyRegistryImport } from '../src/use-cases/registry.js';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { signedInApp } from './signed-in-app.js';

const REGISTRY = fileURLToPath(new URL('../../../../shared/data/registry/', import.meta.url));

describeEachDb('the registry through the API (DESIGN §12.3)', (ctx) => {
  let app: FastifyInstance;
  let viewer: Record<string, string>;
  let admin: Record<string, string>;
  let projectId: number;
  let developerId: number;

  beforeAll(async () => {
    // the first user is the admin; a viewer beside them
    ({ app, headers: admin } = await signedInApp(ctx.db, {}, undefined, 'boss'));
    await addUser(ctx.db, 'reader', 'secret-pass', 'viewer');
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'reader', password: 'secret-pass' },
    });
    viewer = { authorization: `Bearer ${login.json().token}` };
    // our project: the same ЖК under the developer's own name, 200 m away, buildings 3 and 4
    const body = {
      ...snap(
        '2026-10-30',
        'Пример',
        'Озерный парк',
        Array.from({ length: 10 }, (_, i) => ({
          ...flat(`f${i}`, 1 + (i % 3), 40 + i, 12_000_000 + i * 100_000),
          building: i < 5 ? '3' : 'Корпус 4',
        })),
      ),
      location: { latitude: 55.5715, longitude: 37.474 },
    };
    const ingest = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: admin,
      payload: body,
    });
    expect(ingest.statusCode).toBe(200);
    // a month later one flat is gone from the list
    const later = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers: admin,
      payload: { ...body, date: '2026-11-26', flats: body.flats.slice(0, 9) },
    });
    expect(later.statusCode).toBe(200);
    const [p] = await ctx.db.query<{ id: number; developer_id: number }>(
      'select id, developer_id from project',
    );
    ({ id: projectId, developer_id: developerId } = p);
    const answers: SavedAnswer[] = [];
    for (const f of readdirSync(REGISTRY)
      .filter((n) => n.endsWith('.json'))
      .sort())
      for await (const a of readRegistryFile(join(REGISTRY, f))) answers.push(a);
    await applyRegistryImport(app.host, answers, cliActor());
  });
  afterAll(async () => {
    await app.close();
  });

  it("a project's objects: matched by developer, name and distance, each to its building; shifts and sales", async () => {
    const res = await app.inject({ url: `/api/registry/objects?projectId=${projectId}`, headers: viewer });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(
      body.objects.map((o: { objId: number; building: string; match: string }) => [
        o.objId,
        o.building,
        o.match,
      ]),
    ).toEqual([
      [51234, '3', 'auto'],
      [51235, '4', 'auto'],
    ]);
    expect(body.objects[0]).toMatchObject({
      housingClass: 'Комфорт',
      ready: { day: '2027-06-30', quarter: false },
      shifts: [
        { field: 'ready', from: '2026-12-31', to: '2027-06-30', months: 6 },
        { field: 'transfer', from: '2027-03-31', to: '2027-09-30', months: 6 },
      ],
      flats: 412,
      realised: 264,
      escrow: true,
      problem: false,
    });
    expect(body.objects[1]).toMatchObject({
      housingClass: 'Комфорт',
      ready: { day: '2027-12-31', quarter: true },
    });
    // the second month's registered sales: 13 + 15; the first month has none to compare with
    expect(body.sales).toEqual([
      { month: '2026-10', sales: null, corrections: 0, soldShare: expect.closeTo(437 / 942, 4) },
      { month: '2026-11', sales: 28, corrections: 0, soldShare: expect.closeTo(465 / 942, 4) },
    ]);
    expect(body.lastDay).toBe('2026-11-26');
  });

  it("a developer's «Надёжность сроков»: one object of two moved later, by six months", async () => {
    const res = await app.inject({ url: `/api/registry/shifts?developerId=${developerId}`, headers: viewer });
    expect(res.statusCode).toBe(200);
    expect(res.json().reliability).toEqual({
      objects: 2,
      movedLater: 1,
      movedLaterShare: 0.5,
      monthsLast12: 6,
      meanMonthsLast12: 6,
      shiftsLast12: 1,
    });
    // the same figures for every developer at once (the developers' table)
    const all = await app.inject({ url: '/api/registry/reliability', headers: viewer });
    expect(all.json()).toEqual({
      developers: [{ developerId, ...res.json().reliability, group: 'ГК Пример' }],
      // a group over every registry object naming it (the Yekaterinburg object names none)
      groups: [{ group: 'ГК Пример', ...res.json().reliability }],
      asOf: '2026-11-26',
    });
    expect(res.json().shifts.map((s: { objId: number; field: string }) => [s.objId, s.field])).toEqual([
      [51234, 'ready'],
      [51234, 'transfer'],
    ]);
  });

  it('registered sales by month of a project, a developer, the market and a class, beside the lists’ gone₃₀', async () => {
    const sales = (body: object) =>
      app.inject({
        method: 'POST',
        url: '/api/registry/sales',
        headers: viewer,
        payload: { from: '2026-01-01', to: '2026-11-26', ...body },
      });
    const project = (await sales({ projectId })).json();
    expect(project.objects).toBe(2);
    expect(project.withLists).toBe(2);
    expect(project.months.map((m: { month: string; sales: number | null }) => [m.month, m.sales])).toEqual([
      ['2026-10', null],
      ['2026-11', 28],
    ]);
    // our lists cover both registry days (none gone yet: the missing lot waits out its grace, §10.2)
    expect(project.months.map((m: { gone30: number | null }) => m.gone30)).toEqual([0, 0]);
    expect((await sales({ developerId })).json().months[1].sales).toBe(28);
    // the whole market counts the registry-only object too (its sales did not move: 54 and 54)
    const all = (await sales({})).json();
    expect([all.objects, all.withLists, all.months[1].sales]).toEqual([3, 2, 28]);
    const business = (await sales({ housingClass: 'Бизнес' })).json();
    expect([business.objects, business.months[1].sales]).toEqual([1, 0]);
    // a place none of the objects' projects is in
    expect((await sales({ city: 'Екатеринбург' })).json().objects).toBe(0);
    const bad = await sales({ housingClass: 'Люкс' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('housingClass');
    expect((await sales({ projectId, developerId })).statusCode).toBe(400);
    expect((await sales({ from: '2026-11-20', to: '2026-11-01' })).statusCode).toBe(400);
  });

  it('the pipeline: completions by declared quarter with unsold flats, by place (a registry-only object by its address)', async () => {
    const pipeline = (body: object) =>
      app.inject({
        method: 'POST',
        url: '/api/registry/pipeline',
        headers: viewer,
        payload: { from: '2023-10-01', to: '2027-12-31', ...body },
      });
    const all = (await pipeline({})).json();
    expect(all.objects).toBe(3);
    const q = (key: string) => all.quarters.find((x: { quarter: string }) => x.quarter === key);
    expect(q('2023-Q4')).toMatchObject({ launches: 1, launchedFlats: 60 });
    expect(q('2024-Q1')).toMatchObject({ launches: 1, launchedFlats: 412 });
    expect(q('2026-Q3')).toMatchObject({ completions: 1, completingFlats: 60, unsold: 6, soldShare: 0.9 });
    expect(q('2027-Q2')).toMatchObject({ completions: 1, completingFlats: 412, unsold: 148 });
    expect(q('2027-Q4')).toMatchObject({ completions: 1, completingFlats: 530, unsold: 329 });
    expect(all.quarters).toHaveLength(17);
    const ekb = (await pipeline({ city: 'Екатеринбург' })).json();
    expect(ekb.objects).toBe(1);
    expect((await pipeline({ housingClass: 'Комфорт' })).json().objects).toBe(2);
    expect((await pipeline({ from: '2020-01-01', to: '2050-01-01' })).statusCode).toBe(400);
  });

  it('every registry project of the market: ours with its objects, a registry-only one by its address', async () => {
    const market = (body: object) =>
      app.inject({ method: 'POST', url: '/api/registry/market', headers: viewer, payload: body });
    const all = await market({});
    expect(all.statusCode).toBe(200);
    // written as the reader made it (no check on every answer): held to the schema here
    expect(registryMarketResponseSchema.parse(all.json())).toEqual(all.json());
    expect(all.json()).toEqual({
      projects: [
        expect.objectContaining({
          projectId,
          objId: 51234,
          name: 'Озерный парк',
          developerName: 'Пример',
          objects: 2,
          flats: 942,
          realised: 465,
          soldShare: expect.closeTo(465 / 942, 4),
          housingClass: 'Комфорт',
          ready: '2027-12-31',
          problem: false,
        }),
        expect.objectContaining({
          projectId: null,
          objId: 60777,
          name: 'Северная звезда',
          developerName: 'Уралстрой-пример',
          problem: true,
          ready: '2026-09-30',
          objects: 1,
          flats: 60,
          realised: 54,
          soldShare: 0.9,
          housingClass: 'Бизнес',
        }),
      ],
      objects: 3,
      asOf: '2026-11-26',
    });
    const only = all.json().projects[1];
    expect([only.latitude, only.longitude].every((v: unknown) => typeof v === 'number')).toBe(true);
    const ids = async (body: object) =>
      (await market(body)).json().projects.map((p: { objId: number }) => p.objId);
    expect(await ids({ city: 'Екатеринбург' })).toEqual([60777]);
    expect(await ids({ developerId })).toEqual([51234]);
    expect(await ids({ housingClass: 'Бизнес' })).toEqual([60777]);
    const bad = await market({ housingClass: 'Люкс' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('housingClass');
  });

  it('«Рынок»’s map in columns (issue 46): the table’s rows with coordinates, the registry-only ones first', async () => {
    const period = { from: '2026-10-01', to: '2026-11-26' };
    const post = (url: string, body: object) =>
      app.inject({ method: 'POST', url, headers: viewer, payload: { ...period, ...body } });
    const map = async (body: object) => {
      const res = await post('/api/market/map', body);
      expect(res.statusCode).toBe(200);
      // written as the reader made it (no check on every answer): held to the schema here
      expect(marketMapResponseSchema.parse(res.json())).toEqual(res.json());
      return res.json() as MarketMapResponse;
    };
    const all = await map({});
    // what the page joined itself before: the ranking's row, the project's place, the registry's project
    const ranking = (await post('/api/market', {})).json().projects;
    const ours = ranking.find((r: { id: number }) => r.id === projectId);
    const registry = (await post('/api/registry/market', { from: undefined, to: undefined })).json();
    const only = registry.projects.find((p: { projectId: number | null }) => p.projectId === null);
    expect(all.id).toEqual([-only.objId, projectId]);
    expect(all.size).toEqual([only.flats, ours.stock]);
    expect(all.avgMeterPrice).toEqual([null, ours.avgMeterPrice]);
    expect(all.indexChange).toEqual([null, ours.indexChange]);
    expect(all.absorption).toEqual([null, ours.absorption]);
    expect([all.longitude, all.latitude]).toEqual([
      [only.longitude, 37.474],
      [only.latitude, 55.5715],
    ]);
    expect(all.developerId).toEqual([0, developerId]);
    expect(all.name).toEqual(['Северная звезда', 'Озерный парк']);
    expect(all.developer.map((d) => all.developers[d])).toEqual(['Уралстрой-пример', 'Пример']);
    expect([all.objects, all.soldShare, all.ready]).toEqual([
      [1, null],
      [0.9, null],
      ['2026-09-30', null],
    ]);
    expect(all.address[0]).toBe(only.address);
    expect({ unplaced: all.unplaced, registryOnly: all.registryOnly }).toEqual({
      unplaced: [],
      registryOnly: 1,
    });
    // only with lists, a station (not the registry's), a class: the registry-only project goes as the table's row
    expect((await map({ listsOnly: true })).id).toEqual([projectId]);
    expect((await map({ listsOnly: true })).registryOnly).toBe(0);
    expect((await map({ priceClass: 'business' })).id).toEqual([-only.objId]);
    expect((await map({ priceClass: 'comfort' })).id).toEqual([projectId]);
    expect((await map({ developerId })).id).toEqual([projectId]);
    expect((await map({ city: 'Екатеринбург' })).id).toEqual([-only.objId]);
    const bad = await post('/api/market/map', { listsOnly: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('listsOnly');
  });

  it('a project’s class: the registry’s, a hand edit wins (audited, admins only), given back; the market filters by it', async () => {
    const classOf = async () =>
      (await app.inject({ url: `/api/projects/${projectId}/class`, headers: viewer })).json();
    const before = await classOf();
    expect(before).toMatchObject({
      projectId,
      priceClass: 'comfort',
      classOrigin: 'registry',
      hand: null,
      registry: 'Комфорт',
    });
    // no region: the other regions' bands price it
    expect(before.band.name).toBe('Другие регионы');
    expect(before.byPrice).toBe(priceClassIn(undefined, before.avgMeterPrice));
    expect(before.avgMeterPrice).toBeGreaterThan(200_000);
    const put = (headers: Record<string, string>, priceClass: unknown) =>
      app.inject({
        method: 'PUT',
        url: `/api/projects/${projectId}/class`,
        headers,
        payload: { priceClass },
      });
    const market = async (priceClass?: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/market',
          headers: viewer,
          payload: { from: '2026-10-01', to: '2026-11-26', ...(priceClass && { priceClass }) },
        })
      ).json();
    // the ranking asked before the edit (its answer kept by the response cache): the edit is seen all the same
    expect((await market()).projects[0].classOrigin).toBe('registry');
    expect((await put(viewer, 'business')).statusCode).toBe(403);
    const bad = await put(admin, 'luxury');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('priceClass');
    expect((await put(admin, 'business')).json()).toMatchObject({
      priceClass: 'business',
      classOrigin: 'hand',
      hand: 'business',
    });
    const [row] = (await market()).projects;
    expect([row.priceClass, row.classOrigin]).toEqual(['business', 'hand']);
    expect((await market('business')).projects).toHaveLength(1);
    expect((await market('comfort')).projects).toHaveLength(0);
    // the developer's row: the class most of its stock has
    expect((await market()).developers[0].priceClass).toBe('business');
    expect((await put(admin, null)).json()).toMatchObject({
      priceClass: 'comfort',
      classOrigin: 'registry',
      hand: null,
    });
    const audit = await ctx.db.query<{ before: unknown; after: unknown }>(
      "select before, after from audit_log where action = 'project.class' order by id",
    );
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [{ class: null }, { class: 'business' }],
      [{ class: 'business' }, { class: null }],
    ]);
    expect((await app.inject({ url: '/api/projects/999999/class', headers: viewer })).statusCode).toBe(404);
  });

  it('migration 30’s mark: the registry classes of the projects kept again at the next open', async () => {
    await ctx.db.query('update project set registry_class = null');
    await ctx.db.query("insert into app_meta (key, value) values ('registry_class_needed', 'x')");
    await rebuildIfMarked(ctx.db, 3, 0, () => {});
    const rows = await ctx.db.query<{ registry_class: string | null }>('select registry_class from project');
    expect(rows.map((r) => r.registry_class)).toEqual(['Комфорт']);
    expect(await ctx.db.query("select 1 from app_meta where key = 'registry_class_needed'")).toHaveLength(0);
  });

  it('a hand link wins over the rule and is audited; taken back, the rule decides again; viewers may not', async () => {
    const url = '/api/registry/objects/60777/link';
    expect(
      (await app.inject({ method: 'PUT', url, headers: viewer, payload: { projectId } })).statusCode,
    ).toBe(403);
    const linked = await app.inject({ method: 'PUT', url, headers: admin, payload: { projectId } });
    expect(linked.json()).toEqual({ objId: 60777, projectId, building: null, match: 'hand' });
    const objects = await app.inject({
      url: `/api/registry/objects?projectId=${projectId}`,
      headers: viewer,
    });
    expect(objects.json().objects.map((o: { objId: number }) => o.objId)).toEqual([51234, 51235, 60777]);
    // an unlink by hand: the rule's match is refused too
    const unlinked = await app.inject({
      method: 'PUT',
      url: '/api/registry/objects/51234/link',
      headers: admin,
      payload: { projectId: null },
    });
    expect(unlinked.json()).toMatchObject({ projectId: null, match: 'hand' });
    // unlinked, it is a candidate to link back: the same ЖК name, 0.23 km away; the far one of another name is not
    const candidates = async () =>
      (await app.inject({ url: `/api/registry/candidates?projectId=${projectId}`, headers: viewer })).json();
    expect(await candidates()).toEqual({
      objects: [expect.objectContaining({ objId: 51234, sameName: true, km: 0.23, flats: 412 })],
    });
    const back = await app.inject({
      method: 'DELETE',
      url: '/api/registry/objects/51234/link',
      headers: admin,
    });
    expect(back.json()).toEqual({ objId: 51234, projectId, building: '3', match: 'auto' });
    expect((await candidates()).objects).toEqual([]);
    expect(
      (await app.inject({ url: '/api/registry/candidates?projectId=0', headers: viewer })).statusCode,
    ).toBe(400);
    await app.inject({ method: 'DELETE', url, headers: admin });
    const audit = await ctx.db.query<{ action: string; target: string }>(
      `select action, target from audit_log where action like 'registry.%' order by id`,
    );
    expect(audit.map((a) => `${a.action} ${a.target}`)).toEqual([
      expect.stringMatching(/^registry\.import реестр: 2026-10-31, 2026-11-26/),
      'registry.link объект реестра 60777',
      'registry.unlink объект реестра 51234',
      'registry.unlink объект реестра 51234',
      'registry.unlink объект реестра 60777',
    ]);
    // bad input: a 4xx naming the field, never a 500
    const bad = await app.inject({ method: 'PUT', url, headers: admin, payload: { projectId: 'один' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('projectId');
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/registry/objects/1/link',
          headers: admin,
          payload: { projectId },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ url: '/api/registry/objects?projectId=999999', headers: viewer })).statusCode,
    ).toBe(404);
  });

  it('the whole market’s registered sales beside the kept span of its projects: gone₃₀ read, not swept again', async () => {
    // the market's spans kept (the server's round after the imports; a command's here)
    await keepMarketSpansLocked(ctx.db, new MarketReader(new ReadCache()));
    const [row] = (await keptSpanBodies(ctx.db)).filter(
      (r) => r.scope === 'market' && r.status === 'ALL' && r.rooms === 'all',
    );
    expect(row).toBeDefined();
    // the kept body marked (its gone₃₀) under the same members: every project has its objects, so the whole
    // market's sales read it; a project's are made from its summaries (the true figure, 0)
    const span = decodeSpan(bytes(row.body));
    span.points = span.points.map((p) => ({ ...p, gone30: 777 }));
    await ctx.db.query(
      `update market_span set body = $1 where scope = 'market' and status = 'ALL' and rooms = 'all'`,
      [encodeSpan(span)],
    );
    const fresh = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    try {
      const sales = async (body: object) => {
        const res = await fresh.inject({
          method: 'POST',
          url: '/api/registry/sales',
          headers: viewer,
          payload: { from: '2026-01-01', to: '2026-11-26', ...body },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().months.map((m: { gone30: number | null }) => m.gone30);
      };
      expect(await sales({})).toEqual([777, 777]);
      expect(await sales({ projectId })).toEqual([0, 0]);
    } finally {
      await fresh.close();
      await ctx.db.query('delete from market_span');
    }
  });
});
