import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser } from '../src/db/queries/users.js';
import { describeEachDb } from './databases.js';
import { fingerprint } from './fingerprint.js';
import { flat, snap } from './market-fixture.js';

// Every route of the OpenAPI document, every parameter and body field, each given every hostile value
// below on an otherwise valid request: never a 5xx, errors in the one {message, code} shape, and a refused
// request leaves the database as it was.

/** Values of every class issue 13 found, and their neighbours. */
const HOSTILE: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  'x'.repeat(10_000),
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e309',
  '0x10',
  'true',
  '[1]',
  '９',
  '../../etc/passwd',
  "1' or '1'='1",
  '2026-02-30',
  '0000-01-01',
  '9999-12-31',
  '=HYPERLINK("x")',
  null,
  true,
  false,
  -1,
  0,
  1.5,
  1e308,
  2 ** 53 + 2,
  [],
  [1],
  {},
  { a: { b: { c: [[[[1]]]] } } },
  JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`),
];

/** How a hostile value goes into a query string or a path (text), in a few spellings. */
function asText(value: unknown): string[] {
  if (typeof value === 'string') return [encodeURIComponent(value)];
  const json = JSON.stringify(value);
  return [encodeURIComponent(json.length > 2_000 ? json.slice(0, 2_000) : json)];
}
/** Malformed spellings only a raw query or path can carry. */
const RAW = ['%00', '%E0%A4%A', '%', '%FF%FE', '..%2f..%2f', '%0d%0aSet-Cookie:x=1'];

const ingestBody = (flatOverrides: Record<string, unknown> = {}) =>
  snap('2026-11-10', 'Скан', 'Скан-проект', [{ ...flat('s1', 1, 40, 8_000_000), ...flatOverrides }]);

/** A valid request per route, to vary one field at a time. */
const VALID_BODY: Record<string, Record<string, unknown>> = {
  '/api/auth/login': { username: 'scanner', password: 'scanner-pass' },
  '/api/auth/password': { currentPassword: 'wrong-on-purpose', newPassword: 'another-pass-1' },
  '/api/project/stats': { projectId: 1, from: '2026-11-01', to: '2026-11-04' },
  '/api/discount': { period: 'DAY' },
  '/api/discount/project': { period: 'DAY' },
};
const VALID_QUERY: Record<string, Record<string, string>> = {
  '/api/projects': { developerId: '1' },
  '/api/flat': { flatId: '1' },
  '/api/price-changes': { from: '2026-11-01', to: '2026-11-04' },
  '/api/price-changes.csv': { from: '2026-11-01', to: '2026-11-04' },
  '/api/search': { q: 'Скан' },
  '/api/summaries': {},
};
const VALID_PATH: Record<string, string> = { id: '1', projectId: '1', flatId: '1' };
/** Routes that end the scanner's session: scanned last, or not at all. */
const SKIP = new Set(['post /api/auth/logout']);

interface Operation {
  parameters?: { name: string; in: 'query' | 'path' }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

describeEachDb('OpenAPI scan: hostile values on every route and field', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'scanner', 'scanner-pass');
    const day = (date: string, price: number) =>
      snap(date, 'Пионер', 'Скан', [flat('a', 1, 40, price), flat('b', 2, 60, 12_000_000)]);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'scanner', password: 'scanner-pass' },
    });
    headers = { authorization: `Bearer ${login.json().token}` };
    const imported = await app.inject({
      method: 'POST',
      url: '/api/ingest/snapshots',
      headers,
      payload: [day('2026-11-01', 8_000_000), day('2026-11-02', 7_600_000)],
    });
    expect(imported.statusCode).toBe(200);
  });
  afterAll(async () => app?.close());

  it('no 5xx, one error shape, the database unchanged by every refused request', async () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
    let requests = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (SKIP.has(`${method} ${route}`)) continue;
        const params = op.parameters ?? [];
        const isIngest = route === '/api/ingest/snapshots';
        const bodyFields = isIngest
          ? [
              'date',
              'developer',
              'project',
              'flats',
              'flats.0.id',
              'flats.0.area',
              'flats.0.price',
              'flats.0.rooms',
              'flats.0.building',
              'flats.0.floor',
              'flats.0.status',
            ]
          : Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});

        /** The request with `field` (a parameter or a body field) replaced by `value` (text for URLs). */
        const send = async (
          target: { kind: 'param' | 'body'; name: string },
          value: unknown,
          raw?: string,
        ) => {
          const query = { ...(VALID_QUERY[route] ?? {}) };
          let path = route;
          for (const p of params.filter((x) => x.in === 'path'))
            path = path.replace(`{${p.name}}`, VALID_PATH[p.name] ?? '1');
          const queryParts = Object.entries(query).map(([k, v]) => [k, encodeURIComponent(v)]);
          if (target.kind === 'param') {
            const param = params.find((p) => p.name === target.name)!;
            const text = raw ?? asText(value)[0];
            if (param.in === 'path')
              path = route
                .replace(`{${param.name}}`, text)
                .replace(/\{(\w+)\}/g, (_m, n) => VALID_PATH[n] ?? '1');
            else {
              const i = queryParts.findIndex(([k]) => k === param.name);
              if (i >= 0) queryParts.splice(i, 1);
              queryParts.push([param.name, text]);
              // the same parameter twice: an array where a value is expected
              if (value === 'twice') queryParts.push([param.name, text]);
            }
          }
          const url = queryParts.length
            ? `${path}?${queryParts.map(([k, v]) => `${k}=${v}`).join('&')}`
            : path;
          let payload: unknown;
          if (method === 'post') {
            if (isIngest) {
              const [field, , sub] = target.name.split('.');
              payload =
                target.kind !== 'body'
                  ? ingestBody()
                  : sub
                    ? ingestBody({ [sub]: value })
                    : { ...ingestBody(), [field]: value };
            } else {
              payload = { ...(VALID_BODY[route] ?? {}) };
              if (target.kind === 'body') (payload as Record<string, unknown>)[target.name] = value;
            }
          }
          const res = await app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: method === 'post' ? { ...headers, 'content-type': 'application/json' } : headers,
            ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
          });
          requests++;
          const what = `${method.toUpperCase()} ${url.slice(0, 120)} ${target.name}=${JSON.stringify(value)?.slice(0, 40)}`;
          expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const body = res.json();
            expect(Object.keys(body).sort(), what).toEqual(['code', 'message']);
            expect(body.code, what).toMatch(/^[A-Z_]+$/);
            expect(body.message.includes('\u0000'), what).toBe(false);
            expect(res.body, what).not.toMatch(/\bat .*\.js:\d+|select .* from/i);
          }
          return res.statusCode;
        };

        const before = await fingerprint(ctx.db);
        let changed = false;
        for (const p of params) {
          for (const value of [...HOSTILE, 'twice']) await send({ kind: 'param', name: p.name }, value);
          for (const raw of RAW) await send({ kind: 'param', name: p.name }, raw, raw);
        }
        for (const field of bodyFields)
          for (const value of HOSTILE) {
            const status = await send({ kind: 'body', name: field }, value);
            // a hostile value that is still a valid name (a long or odd one) may be imported
            if (isIngest && status === 200) changed = true;
          }
        if (!changed) expect(await fingerprint(ctx.db), `${method} ${route}`).toEqual(before);
      }
    }
    expect(requests).toBeGreaterThan(1_000);
  }, 240_000);
});
