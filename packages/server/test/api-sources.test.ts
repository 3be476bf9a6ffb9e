import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// the feeds these tests collect are served on this machine: allowed as an operator allows an intranet
// host (DESIGN §11.5; test/collect-guard.test.ts holds the refusals)
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

// /api/sources (DESIGN §10.8): the «Источники» page's API, against a loopback feed.

const FEED = readFileSync(new URL('./fixtures/yrl/feed.xml', import.meta.url));

describeEachDb('sources API', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  let server: Server;
  let base = '';
  let shrinkingCalls = 0;
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
    server = createServer((req, res) => {
      if (req.url === '/feed.xml') res.writeHead(200).end(FEED);
      else if (req.url === '/shrinking.json') {
        // four lots three days running, then a scan that caught one (§10.4)
        shrinkingCalls++;
        const lots = shrinkingCalls <= 3 ? ['a', 'b', 'c', 'd'] : ['a'];
        res.writeHead(200).end(
          JSON.stringify({
            date: '2026-01-01',
            developer: 'Сжатый',
            project: 'Неполный',
            flats: lots.map((id) => ({ id, building: '1', rooms: 1, area: 40, price: 8_000_000 })),
          }),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers, ...(payload && { payload }) });

  it('adds, lists without header values, changes, runs now, lists the runs, removes', async () => {
    const created = await call('POST', '/api/sources', {
      name: 'Пионер фид',
      kind: 'yrl',
      url: `${base}/feed.xml`,
      headers: { Authorization: 'Bearer secret' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const source = created.json();
    expect(source).toMatchObject({
      name: 'Пионер фид',
      kind: 'yrl',
      headerNames: ['Authorization'],
      enabled: true,
    });
    expect(source.nextRun).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
    const list = await call('GET', '/api/sources');
    expect(list.body).not.toContain('secret');

    const run = await call('POST', `/api/sources/${source.id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({
      status: 'done',
      snapshots: 2,
      flats: 5,
      httpStatus: 200,
      error: null,
    });
    const runs = (await call('GET', `/api/sources/${source.id}/runs`)).json();
    expect(runs).toHaveLength(1);
    expect((await call('GET', '/api/sources')).json()[0].lastRun).toMatchObject({ status: 'done', flats: 5 });

    // a source whose list is gone fails twice in a row: it is «failing»
    const gone = (
      await call('POST', '/api/sources', { name: 'Пропавший', kind: 'json', url: `${base}/missing.json` })
    ).json();
    for (let i = 0; i < 2; i++)
      expect((await call('POST', `/api/sources/${gone.id}/run`)).json()).toMatchObject({
        status: 'failed',
        httpStatus: 404,
      });
    const views = (await call('GET', '/api/sources')).json() as { name: string; failing: boolean }[];
    expect(views.map((v) => [v.name, v.failing])).toEqual([
      ['Пионер фид', false],
      ['Пропавший', true],
    ]);

    const off = await call('PATCH', `/api/sources/${gone.id}`, { enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, nextRun: null });
    expect((await call('DELETE', `/api/sources/${gone.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/sources/${gone.id}/runs`)).statusCode).toBe(404);
  });

  it('a partial list of the day shows on the source (DESIGN §10.4)', async () => {
    const { collectSource } = await import('../src/collect/collector.js');
    const { getSource } = await import('../src/db/queries/sources.js');
    const { Importer } = await import('../src/ingest/importer.js');
    const made = (
      await call('POST', '/api/sources', { name: 'Сжатый', kind: 'json', url: `${base}/shrinking.json` })
    ).json();
    const source = await getSource(ctx.db, made.id);
    const importer = new Importer(ctx.db, 2);
    for (const date of ['2026-11-01', '2026-11-02', '2026-11-03'])
      expect((await collectSource(ctx.db, importer, source, date)).partial).toBe(0);
    const short = await collectSource(ctx.db, importer, source, '2026-11-04');
    expect(short).toMatchObject({ status: 'done', partial: 1, flats: 1 });
    const view = (
      (await call('GET', '/api/sources')).json() as { name: string; lastRun: { partial: number } }[]
    ).find((v) => v.name === 'Сжатый');
    expect(view?.lastRun.partial).toBe(1);
  });

  it('bad input is a 400 naming the field; an unknown source a 404; a guest a 401', async () => {
    const cases: [object, string][] = [
      [{ name: '', kind: 'yrl', url: `${base}/a` }, 'name'],
      [{ name: 'a', kind: 'xls', url: `${base}/a` }, 'kind'],
      [{ name: 'a', kind: 'yrl', url: 'ftp://host/a' }, 'url'],
      [{ name: 'a', kind: 'yrl', url: 'не адрес' }, 'url'],
      [{ name: 'a', kind: 'yrl', url: `${base}/a`, headers: { 'bad header': 'x' } }, 'headers'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/sources', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const dup = await call('POST', '/api/sources', { name: 'пионер ФИД', kind: 'yrl', url: `${base}/a` });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toContain('уже есть');
    expect((await call('POST', '/api/sources/99999/run')).statusCode).toBe(404);
    expect((await call('PATCH', '/api/sources/99999', { enabled: true })).statusCode).toBe(404);
    const guest = await app.inject({ method: 'GET', url: '/api/sources' });
    expect(guest.statusCode).toBe(401);
  });
});

describeEachDb(
  "a source URL's user-info is a secret; the headers that frame a request are the server's",
  (ctx) => {
    let app: FastifyInstance;
    let headers: Record<string, string> = {};
    let server: Server;
    let port = 0;
    const seen: (string | undefined)[] = [];
    beforeAll(async () => {
      ({ app, headers } = await signedInApp(ctx.db));
      const other = createServer((req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(200).end(FEED);
      });
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      const otherPort = (other.address() as AddressInfo).port;
      server = createServer((req, res) => {
        const want = `Basic ${Buffer.from('feeduser:p@ss wörd').toString('base64')}`;
        if (req.url === '/away.xml')
          res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/f.xml` }).end();
        else if (req.headers.authorization === want) res.writeHead(200).end(FEED);
        else res.writeHead(401).end();
      });
      server.on('close', () => other.close());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await app?.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      app.inject({ method, url, headers, ...(payload && { payload }) });

    it('stored and used as Basic credentials, shown and audited as ***, kept when the form sends *** back', async () => {
      const url = `http://feeduser:p%40ss%20w%C3%B6rd@127.0.0.1:${port}/private.xml`;
      const made = await call('POST', '/api/sources', { name: 'Закрытый фид', kind: 'yrl', url });
      expect(made.statusCode, made.body).toBe(201);
      const shown = `http://***@127.0.0.1:${port}/private.xml`;
      expect(made.json().url).toBe(shown);
      const run = await call('POST', `/api/sources/${made.json().id}/run`);
      expect(run.json(), run.body).toMatchObject({ status: 'done', httpStatus: 200 });
      // the form sends back what it showed, with another name: the credentials stay
      const changed = await call('PATCH', `/api/sources/${made.json().id}`, { name: 'Закрытый', url: shown });
      expect(changed.statusCode, changed.body).toBe(200);
      const [row] = await ctx.db.query<{ url: string }>('select url from source where id = $1', [
        made.json().id,
      ]);
      expect(row.url).toBe(url);
      expect((await call('POST', `/api/sources/${made.json().id}/run`)).json().status).toMatch(
        /done|unchanged/,
      );
      // nowhere to be read: the list, the audit log, its CSV
      for (const where of ['/api/sources', '/api/audit?limit=500', '/api/audit.csv']) {
        const body = (await call('GET', where)).body;
        expect(body, where).not.toContain('feeduser');
        expect(body, where).not.toContain('p%40ss');
      }
      // a new user-info replaces the stored one
      await call('PATCH', `/api/sources/${made.json().id}`, {
        url: `http://other:x@127.0.0.1:${port}/private.xml`,
      });
      const [after] = await ctx.db.query<{ url: string }>('select url from source where id = $1', [
        made.json().id,
      ]);
      expect(after.url).toBe(`http://other:x@127.0.0.1:${port}/private.xml`);
    });

    it('credentials do not follow a redirect to another origin', async () => {
      const made = await call('POST', '/api/sources', {
        name: 'Уводящий',
        kind: 'yrl',
        url: `http://feeduser:p%40ss%20w%C3%B6rd@127.0.0.1:${port}/away.xml`,
      });
      const run = await call('POST', `/api/sources/${made.json().id}/run`);
      expect(run.json(), run.body).toMatchObject({ status: 'done' });
      expect(seen).toEqual([undefined]);
    });

    it.each(['Host', 'content-length', 'Transfer-Encoding', 'CONNECTION', 'Upgrade', 'Keep-Alive'])(
      'a source may not set %s: a 400 naming headers, nothing stored',
      async (name) => {
        const before = await ctx.db.query('select id from source');
        const res = await call('POST', '/api/sources', {
          name: `С заголовком ${name}`,
          kind: 'yrl',
          url: `http://127.0.0.1:${port}/private.xml`,
          headers: { [name]: 'x' },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(/^headers/);
        expect(await ctx.db.query('select id from source')).toEqual(before);
      },
    );
  },
);
