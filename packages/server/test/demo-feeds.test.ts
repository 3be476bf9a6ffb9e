import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collectSource } from '../src/collect/collector.js';
import { listSources } from '../src/collect/sources.js';
import { registerDemoSources } from '../src/demo/register-sources.js';
import { Importer } from '../src/ingest/importer.js';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §10.8, issue 15 item 6: the demo server publishes two price lists under /demo-feeds/ and
// registers them as sources, so a newcomer can run a collection.

describeEachDb('demo feeds', (ctx) => {
  let app: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    ({ app } = await signedInApp(ctx.db));
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

    await registerDemoSources(ctx.db, base);
    await registerDemoSources(ctx.db, base);
    const sources = await listSources(ctx.db);
    expect(sources.map((s) => s.kind)).toEqual(['pik-api', 'yrl']);
    const importer = new Importer(ctx.db, 2);
    for (const s of sources) {
      const run = await collectSource(ctx.db, importer, s, '2026-11-23');
      expect(run.status, `${s.name}: ${run.error}`).toBe('done');
      expect(run.flats).toBeGreaterThan(50);
    }
    const projects = await ctx.db.query<{ name: string }>('select name from project order by name');
    expect(projects.map((p) => p.name)).toEqual(['Демо API', 'ЖК Ручей']);
    // a deleted demo source is not registered again at the next start, the other follows the new address
    await ctx.db.query('delete from source where kind = $1', ['yrl']);
    await registerDemoSources(ctx.db, 'http://127.0.0.1:1');
    const after = await listSources(ctx.db);
    expect(after.map((s) => s.url)).toEqual(['http://127.0.0.1:1/demo-feeds/pik-api']);
  });
});
