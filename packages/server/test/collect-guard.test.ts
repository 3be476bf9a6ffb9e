import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressPolicy, allowedHosts, systemResolve } from '../src/collect/address-guard.js';
import { FetchError, fetchList } from '../src/collect/fetch.js';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §11.5: a collection never reaches inside the network — nothing is fetched from this machine, a
// private network, the cloud's metadata address, whatever the URL's spelling, a name's answer or a redirect.
delete process.env.COLLECT_ALLOW_HOSTS;

/** A listener that records every connection made to it (none may be). */
async function recorder(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((_, res) => res.end('<realty-feed/>'));
  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('fetching a list: nothing inside the network is asked', () => {
  let target: Awaited<ReturnType<typeof recorder>>;
  let redirector: Server;
  let redirectorPort = 0;
  let answers = 0;
  /** the test's resolver: names to the addresses given; «rebind.test» answers public, then loopback */
  const policy = (allow = ''): AddressPolicy => ({
    allow: allowedHosts(allow),
    resolve: async (host) => {
      if (host === 'localhost') return systemResolve(host);
      if (host === 'rebind.test')
        return [{ address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      const names: Record<string, string> = {
        'evil.test': '127.0.0.1',
        'metadata.test': '169.254.169.254',
        'feeds.test': '127.0.0.1',
      };
      if (!names[host]) throw new Error(`ENOTFOUND ${host}`);
      return [{ address: names[host], family: 4 }];
    },
  });
  const quick = { retries: 0, timeoutMs: 3_000 };

  beforeAll(async () => {
    target = await recorder();
    // an allowed host that sends the collection on to this machine
    redirector = createServer((_, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/feed.xml` });
      res.end();
    });
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    redirectorPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    target?.server.close();
    redirector?.close();
  });

  it.each([
    ['loopback', (p: number) => `http://127.0.0.1:${p}/feed.xml`],
    ['localhost (the system resolver)', (p: number) => `http://localhost:${p}/feed.xml`],
    ['IPv6 loopback', (p: number) => `http://[::1]:${p}/feed.xml`],
    ['a decimal spelling', (p: number) => `http://2130706433:${p}/feed.xml`],
    ['an octal spelling', (p: number) => `http://017700000001:${p}/feed.xml`],
    ['a hex spelling', (p: number) => `http://0x7f000001:${p}/feed.xml`],
    ['«0»', (p: number) => `http://0:${p}/feed.xml`],
    ['an IPv4-mapped IPv6 address', (p: number) => `http://[::ffff:127.0.0.1]:${p}/feed.xml`],
    ['a name that resolves to loopback', (p: number) => `http://evil.test:${p}/feed.xml`],
    ['a name rebound to loopback after the check', (p: number) => `http://rebind.test:${p}/feed.xml`],
    ['a private network', () => 'http://10.0.0.7/feed.xml'],
    ['a home network', () => 'http://192.168.1.1/feed.xml'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name of the metadata address', () => 'http://metadata.test/latest/meta-data/'],
  ])('%s is refused, nothing fetched', async (_, url) => {
    answers = 0;
    const before = target.connections();
    const error = await fetchList(url(target.port), { ...quick, policy: policy() }).catch((e) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as Error).message).toMatch(/^url: .*(внутренн|только http)/);
    expect(target.connections()).toBe(before);
  });

  it('a redirect from an allowed host to this machine is refused, every hop checked', async () => {
    const before = target.connections();
    const error = await fetchList(`http://feeds.test:${redirectorPort}/feed.xml`, {
      ...quick,
      policy: policy(`feeds.test:${redirectorPort}`),
    }).catch((e) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as Error).message).toMatch(/^url: 127\.0\.0\.1 ведёт во внутреннюю сеть/);
    expect(target.connections()).toBe(before);
  });

  it('an allowed host is fetched (COLLECT_ALLOW_HOSTS), by name or address, on the port it names', async () => {
    const got = await fetchList(`http://127.0.0.1:${target.port}/feed.xml`, {
      ...quick,
      policy: policy(`127.0.0.1:${target.port}`),
    });
    expect(got.status === 'ok' && got.body.toString()).toBe('<realty-feed/>');
    const named = await fetchList(`http://feeds.test:${target.port}/feed.xml`, {
      ...quick,
      policy: policy(`feeds.test:${target.port}`),
    });
    expect(named.status).toBe('ok');
    // the host without a port: http's and https's ports only, not this one; nothing asked of it
    const before = target.connections();
    const error = await fetchList(`http://127.0.0.1:${target.port}/feed.xml`, {
      ...quick,
      policy: policy('127.0.0.1'),
    }).catch((e) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect(target.connections()).toBe(before);
  });
});

describeEachDb('sources that lead inside the network are refused (400 naming url)', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
  });
  afterAll(async () => app?.close());

  it.each([
    'http://127.0.0.1/feed.xml',
    'http://localhost:8080/feed.xml',
    'http://[::1]/feed.xml',
    'http://10.1.2.3/feed.xml',
    'http://192.168.0.1/feed.xml',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
    'http://0/',
    'http://[::127.0.0.1]/feed.xml',
    'http://[::ffff:0:127.0.0.1]/feed.xml',
    'http://[2002:7f00:1::]/feed.xml',
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  ])('%s', async (url) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/sources',
      headers,
      payload: { name: `Источник ${url}`, kind: 'yrl', url },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^url: .*внутреннюю сеть/);
    expect(await ctx.db.query('select 1 from source')).toEqual([]);
  });

  it('an address changed to one inside is refused too, the source kept as it was', async () => {
    const made = await app.inject({
      method: 'POST',
      url: '/api/sources',
      headers,
      payload: { name: 'Публичный', kind: 'yrl', url: 'http://93.184.216.34/feed.xml' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/sources/${made.json().id}`,
      headers,
      payload: { url: 'http://169.254.169.254/' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^url: /);
    const [row] = await ctx.db.query<{ url: string }>('select url from source');
    expect(row.url).toBe('http://93.184.216.34/feed.xml');
  });
});
