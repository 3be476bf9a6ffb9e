import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collectSource } from '../src/collect/collector.js';
import { fetchList } from '../src/collect/fetch.js';
import { listSources } from '../src/db/queries/sources.js';
import { registerDemoSources } from '../src/demo/register-sources.js';
import { Importer } from '../src/ingest/importer.js';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §10.8, issue 15 item 6: the demo server publishes two price lists under /demo-feeds/ and
// registers them as sources, so a newcomer can run a collection.

describeEachDb('demo feeds', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let base = '';
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => app?.close());

  it('are open to anyone, change with the date, and collect as a YRL feed and a paged PIK API', async () => {
    const yrl = await fetch(`${base}/demo-feeds/ruchey.xml?date=2026-11-20`);
    expect(yrl.status).toBe(200);
    expect(yrl.headers.get('content-type')).toContain('application/xml');
    const text = await yrl.text();
    expect(text).toContain('<realty-feed');
    const next = await (await fetch(`${base}/demo-feeds/ruchey.xml?date=2026-12-20`)).text();
    expect(next).not.toBe(text);
    const page1 = (await (await fetch(`${base}/demo-feeds/pik-api?date=2026-11-20&page=1`)).json()) as {
      flats: unknown[];
    };
    expect(page1.flats).toHaveLength(50);
    const far = (await (await fetch(`${base}/demo-feeds/pik-api?date=2026-11-20&page=99`)).json()) as {
      flats: unknown[];
    };
    expect(far.flats).toEqual([]);
    expect((await fetch(`${base}/demo-feeds/pik-api?page=0`)).status).toBe(400);

    await registerDemoSources(ctx.db);
    await registerDemoSources(ctx.db);
    const sources = await listSources(ctx.db);
    expect(sources.map((s) => s.kind)).toEqual(['pik-api', 'yrl']);
    // read in-process (DESIGN §11.5): a collection never calls this machine over HTTP
    expect(sources.map((s) => s.url)).toEqual(['local:demo/pik-api', 'local:demo/ruchey.xml']);
    const importer = new Importer(ctx.db, 2);
    for (const s of sources) {
      const run = await collectSource(ctx.db, importer, s, '2026-11-23');
      expect(run.status, `${s.name}: ${run.error}`).toBe('done');
      expect(run.flats).toBeGreaterThan(50);
    }
    const projects = await ctx.db.query<{ name: string }>('select name from project order by name');
    expect(projects.map((p) => p.name)).toEqual(['Демо API', 'ЖК Ручей']);
    // the lists read in-process are the ones published over HTTP
    const [pik] = sources;
    expect((await fetchList(`${pik.url}?date=2026-11-20&page=1`)).body.toString()).toBe(
      JSON.stringify(page1),
    );
    // a deleted demo source is not registered again at the next start; one an older version pointed at
    // this server's HTTP address is pointed at the in-process feed
    await ctx.db.query('delete from source where kind = $1', ['yrl']);
    await ctx.db.query(`update source set url = 'http://127.0.0.1:1/demo-feeds/pik-api'`);
    await registerDemoSources(ctx.db);
    const after = await listSources(ctx.db);
    expect(after.map((s) => s.url)).toEqual(['local:demo/pik-api']);
    // nobody else makes a source of a local feed: the API and the CLI take http(s) only
    const res = await app.inject({
      method: 'POST',
      url: '/api/sources',
      headers,
      payload: { name: 'Свой', kind: 'yrl', url: 'local:demo/ruchey.xml' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^url: /);
  });
});
