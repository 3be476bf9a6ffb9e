import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectSource, RAW_KEPT, reparseSource } from '../src/collect/collector.js';
import { FetchError, fetchList, retryAfterMs, USER_AGENT } from '../src/collect/fetch.js';
import { addSource, parseHeader, updateSource } from '../src/collect/sources.js';
import { getSource, listSources } from '../src/db/queries/sources.js';
import { Importer } from '../src/ingest/importer.js';
import { describeEachDb } from './databases.js';

// the feeds these tests collect are served on this machine: allowed as an operator allows an intranet
// host (DESIGN §11.5; test/collect-guard.test.ts holds the refusals)
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

// DESIGN §10.8: sources collected over HTTP — against real servers on loopback started by the tests.

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const pik = JSON.parse(readFileSync(`${FIXTURES}pik-api/2020-01-10T15-33.json`, 'utf8')) as {
  flats: unknown[];
};
const feed = readFileSync(`${FIXTURES}yrl/feed.xml`);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** One loopback server; each test sets what a path answers, and sees what was asked. */
class Loopback {
  server!: Server;
  routes = new Map<string, Handler>();
  asked: { path: string; headers: IncomingMessage['headers'] }[] = [];
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      this.asked.push({ path: `${url.pathname}${url.search}`, headers: req.headers });
      const handler = this.routes.get(url.pathname);
      if (handler) handler(req, res);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(done));
  }
}

const loop = new Loopback();
beforeAll(() => loop.start());
afterAll(() => loop.stop());

const fast = { backoffMs: 10, timeoutMs: 2_000 };

describe('fetching a list', () => {
  it('retries 500s and then takes the list; says who asks; decodes gzip', async () => {
    let calls = 0;
    loop.routes.set('/flaky', (_req, res) => {
      calls++;
      if (calls < 3) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
    });
    const got = await fetchList(`${loop.base}/flaky`, fast);
    expect(got).toMatchObject({ status: 'ok', attempts: 3 });
    expect(got.status === 'ok' && got.body.toString()).toBe('{"ok":true}');
    expect(loop.asked.at(-1)?.headers['user-agent']).toBe(USER_AGENT);
  });

  it('waits as a 429 asks (Retry-After), gives up on a 404 at once, and after the last retry', async () => {
    let calls = 0;
    const times: number[] = [];
    loop.routes.set('/limited', (_req, res) => {
      times.push(Date.now());
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end('[]');
    });
    await fetchList(`${loop.base}/limited`, fast);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT'))).toBe(
      60_000,
    );

    loop.routes.set('/gone', (_req, res) => res.writeHead(404).end());
    const before = loop.asked.length;
    await expect(fetchList(`${loop.base}/gone`, fast)).rejects.toThrow('HTTP 404');
    expect(loop.asked.length - before).toBe(1);

    loop.routes.set('/down', (_req, res) => res.writeHead(502).end());
    await expect(fetchList(`${loop.base}/down`, { ...fast, retries: 2 })).rejects.toThrow(
      'HTTP 502 Bad Gateway (попыток: 3)',
    );
  });

  it('a server that never answers times out; a body cut short is retried; a body over the limit refused', async () => {
    loop.routes.set('/silent', () => {});
    await expect(fetchList(`${loop.base}/silent`, { ...fast, timeoutMs: 200, retries: 1 })).rejects.toThrow(
      'нет ответа за 0 с (попыток: 2)',
    );
    let cut = 0;
    loop.routes.set('/cut', (_req, res) => {
      cut++;
      if (cut === 1) {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('{"flats": [');
        res.destroy();
      } else res.writeHead(200).end('{"flats": []}');
    });
    expect(await fetchList(`${loop.base}/cut`, fast)).toMatchObject({ status: 'ok', attempts: 2 });
    loop.routes.set('/huge', (_req, res) => res.writeHead(200).end(Buffer.alloc(5000, 'x')));
    await expect(fetchList(`${loop.base}/huge`, { ...fast, maxBytes: 1000 })).rejects.toThrow(FetchError);
  });

  it('asks conditionally: 304 is «unchanged»', async () => {
    loop.routes.set('/cond', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
      else res.writeHead(200, { etag: '"v1"' }).end('x');
    });
    const first = await fetchList(`${loop.base}/cond`, fast);
    expect(first).toMatchObject({ status: 'ok', etag: '"v1"' });
    expect(await fetchList(`${loop.base}/cond`, { ...fast, etag: '"v1"' })).toMatchObject({
      status: 'unchanged',
    });
  });
});

describeEachDb('collecting sources', (ctx) => {
  let importer: Importer;
  beforeAll(() => {
    importer = new Importer(ctx.db, 2);
  });

  it('our own formats from a URL: JSON (brotli), NDJSON and CSV, the project named by the source when asked', async () => {
    const { brotliCompressSync } = await import('node:zlib');
    const snapshot = (date: string) => ({
      date,
      developer: 'Свой',
      project: 'Формат',
      flats: [{ id: 'a', building: '1', rooms: 1, area: 40, price: 8_000_000 }],
    });
    loop.routes.set('/own.json', (_req, res) =>
      res
        .writeHead(200, { 'content-encoding': 'br' })
        .end(brotliCompressSync(JSON.stringify(snapshot('2020-01-01')))),
    );
    loop.routes.set('/own.ndjson', (_req, res) =>
      res.writeHead(200).end(`${JSON.stringify(snapshot('2020-01-01'))}\n`),
    );
    loop.routes.set('/own.csv', (_req, res) =>
      res
        .writeHead(200)
        .end(
          'date;developer;project;id;building;rooms;area;price\n2020-01-01;Свой;Формат;b;1;2;55,5;9900000\n',
        ),
    );
    for (const [kind, path, project] of [
      ['json', '/own.json', 'Формат JSON'],
      ['ndjson', '/own.ndjson', 'Формат NDJSON'],
      ['csv', '/own.csv', 'Формат CSV'],
    ] as const) {
      const source = await addSource(ctx.db, {
        name: `Свой ${kind}`,
        kind,
        url: `${loop.base}${path}`,
        project,
      });
      const run = await collectSource(ctx.db, importer, source, '2026-11-22', fast);
      expect(run, `${kind}: ${run.error}`).toMatchObject({ status: 'done', snapshots: 1, flats: 1 });
      // the collection's date wins over the list's own: it is the day the list was read
      expect(run.results[0]).toMatchObject({ project, date: '2026-11-22', developer: 'Свой' });
    }
  });

  it('keeps the raw body of the last runs only', async () => {
    loop.routes.set('/daily.json', (_req, res) =>
      res.writeHead(200).end(
        JSON.stringify({
          date: '2020-01-01',
          developer: 'Ежедневный',
          project: 'Сырой',
          flats: [{ id: 'a', building: '1', rooms: 1, area: 40, price: 8_000_000 }],
        }),
      ),
    );
    const source = await addSource(ctx.db, {
      name: 'Ежедневный',
      kind: 'json',
      url: `${loop.base}/daily.json`,
    });
    for (let d = 1; d <= RAW_KEPT + 2; d++)
      expect(
        (await collectSource(ctx.db, importer, source, `2026-10-${String(d).padStart(2, '0')}`, fast)).status,
      ).toBe('done');
    const rows = await ctx.db.query<{ kept: boolean }>(
      'select raw is not null as kept from source_run where source_id = $1 order by id',
      [source.id],
    );
    expect(rows.map((r) => r.kept)).toEqual([false, false, ...Array(RAW_KEPT).fill(true)]);
  });

  it('checks a source field by field; headers come as «Name: value»', async () => {
    await expect(addSource(ctx.db, { name: '', kind: 'yrl', url: 'http://x' })).rejects.toThrow('name');
    await expect(addSource(ctx.db, { name: 'a', kind: 'xls', url: 'http://x' })).rejects.toThrow('kind');
    await expect(addSource(ctx.db, { name: 'a', kind: 'yrl', url: 'ftp://x' })).rejects.toThrow('url');
    await expect(addSource(ctx.db, { name: 'a', kind: 'yrl', url: 'nonsense' })).rejects.toThrow('url');
    expect(parseHeader('Authorization: Bearer t:1')).toEqual(['Authorization', 'Bearer t:1']);
    expect(() => parseHeader('nothing')).toThrow('--header');
  });

  it('the PIK API page by page: one snapshot of every page, the raw response kept and re-read', async () => {
    const pageSize = 5;
    loop.routes.set('/pik/flats', (req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      const flats = pik.flats.slice((page - 1) * pageSize, page * pageSize);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ flats }));
    });
    const source = await addSource(ctx.db, {
      name: 'ПИК Саларьево',
      kind: 'pik-api',
      url: `${loop.base}/pik/flats?block_id=118`,
      headers: { 'X-Token': 'secret' },
    });
    const from = loop.asked.length;
    const run = await collectSource(ctx.db, importer, source, '2026-11-20', fast);
    expect(run).toMatchObject({
      status: 'done',
      pages: 3,
      snapshots: 1,
      flats: pik.flats.length,
      error: null,
    });
    expect(run.results[0]).toMatchObject({ developer: 'ПИК', project: 'Саларьево парк', date: '2026-11-20' });
    const asked = loop.asked.slice(from).filter((a) => a.path.startsWith('/pik/flats'));
    expect(asked.map((a) => new URL(a.path, 'http://x').searchParams.get('page'))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(asked[0].headers['x-token']).toBe('secret');
    const [stored] = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from snapshot s join project p on p.id = s.project_id where p.name = 'Саларьево парк'`,
    );
    expect(stored.n).toBe(1);
    // the raw response is kept: read again, the day's snapshot is the same list
    const again = await reparseSource(ctx.db, importer, source);
    expect(again?.results.map((r) => r.status)).toEqual(['unchanged']);
  });

  it('a YRL feed; unchanged (304) the next day is that day’s snapshot again; a failing source is recorded', async () => {
    loop.routes.set('/feed.xml', (req, res) => {
      if (req.headers['if-none-match'] === '"f1"') res.writeHead(304).end();
      else res.writeHead(200, { etag: '"f1"', 'content-type': 'application/xml' }).end(feed);
    });
    const source = await addSource(ctx.db, {
      name: 'Пионер фид',
      kind: 'yrl',
      url: `${loop.base}/feed.xml`,
      developer: 'Пионер (фид)',
    });
    const first = await collectSource(ctx.db, importer, source, '2026-11-20', fast);
    expect(first).toMatchObject({ status: 'done', snapshots: 2, flats: 5 });
    expect(first.results.map((r) => r.developer)).toEqual(['Пионер (фид)', 'Пионер (фид)']);
    const second = await collectSource(ctx.db, importer, source, '2026-11-21', fast);
    expect(second, String(second.error)).toMatchObject({ status: 'unchanged', snapshots: 2, flats: 5 });
    expect(second.results.map((r) => [r.date, r.status])).toEqual([
      ['2026-11-21', 'imported'],
      ['2026-11-21', 'imported'],
    ]);
    expect(loop.asked.filter((a) => a.path === '/feed.xml').at(-1)?.headers['if-none-match']).toBe('"f1"');

    loop.routes.set('/broken.xml', (_req, res) => res.writeHead(500).end());
    const broken = await addSource(ctx.db, {
      name: 'Сломанный',
      kind: 'yrl',
      url: `${loop.base}/broken.xml`,
    });
    const failed = await collectSource(ctx.db, importer, broken, '2026-11-21', { ...fast, retries: 1 });
    expect(failed).toMatchObject({ status: 'failed', snapshots: 0 });
    expect(failed.error).toContain('HTTP 500');
    const [row] = await ctx.db.query<{ status: string; http_status: number; error: string }>(
      'select status, http_status, error from source_run where id = $1',
      [failed.runId],
    );
    expect(row).toMatchObject({ status: 'failed', http_status: 500 });
    // a list the reader refuses: nothing of it stored, the reason kept with the raw body
    loop.routes.set('/bad.xml', (_req, res) =>
      res.writeHead(200).end(readFileSync(`${FIXTURES}yrl/malformed-offer.xml`)),
    );
    const bad = await addSource(ctx.db, { name: 'Плохой фид', kind: 'yrl', url: `${loop.base}/bad.xml` });
    const refused = await collectSource(ctx.db, importer, bad, '2026-11-21', fast);
    expect(refused.status).toBe('failed');
    expect(refused.error).toContain('offer[internal-id=302]');
    const [kept] = await ctx.db.query<{ bytes: number }>('select bytes from source_run where id = $1', [
      refused.runId,
    ]);
    expect(kept.bytes).toBeGreaterThan(0);

    await updateSource(ctx.db, broken.id, { enabled: false });
    expect((await listSources(ctx.db)).filter((s) => !s.enabled).map((s) => s.name)).toEqual(['Сломанный']);
    expect((await getSource(ctx.db, 'пионер фид')).id).toBe(source.id);
  });
});
