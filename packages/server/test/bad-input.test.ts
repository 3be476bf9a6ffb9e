import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser } from '../src/db/queries/users.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { describeEachDb } from './databases.js';
import { fingerprint } from './fingerprint.js';

const SQL = "1'; drop table flat; --";
const HUGE = 1e20;

interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  status: number;
  /** the message must name this field (or contain this text) */
  field: string;
}

// A valid request per endpoint is varied one field at a time (wrong type, missing, huge, negative, bad date,
// from > to, unknown id, SQL-looking text); each must answer the right 4xx naming the field.
const STATS_CASES: Case[] = [
  {
    name: 'stats: projectId as text',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: 'abc', from: '2026-01-01', to: '2026-02-01' },
    status: 400,
    field: 'projectId',
  },
  {
    name: 'stats: projectId missing',
    method: 'POST',
    url: '/api/project/stats',
    body: { from: '2026-01-01', to: '2026-02-01' },
    status: 400,
    field: 'projectId',
  },
  {
    name: 'stats: projectId huge',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: HUGE, from: '2026-01-01', to: '2026-02-01' },
    status: 400,
    field: 'projectId',
  },
  {
    name: 'stats: projectId negative',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: -1, from: '2026-01-01', to: '2026-02-01' },
    status: 400,
    field: 'projectId',
  },
  {
    name: 'stats: invalid date',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: 1, from: '2026-02-30', to: '2026-03-01' },
    status: 400,
    field: 'from',
  },
  {
    name: 'stats: from > to',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: 1, from: '2026-03-01', to: '2026-02-01' },
    status: 400,
    field: 'to',
  },
  {
    name: 'stats: unknown project',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: 99999, from: '2026-01-01', to: '2026-02-01' },
    status: 404,
    field: '99999',
  },
  {
    name: 'stats: SQL in projectId',
    method: 'POST',
    url: '/api/project/stats',
    body: { projectId: SQL, from: '2026-01-01', to: '2026-02-01' },
    status: 400,
    field: 'projectId',
  },
  {
    name: 'stats: body is an array',
    method: 'POST',
    url: '/api/project/stats',
    body: [1, 2],
    status: 400,
    field: 'тело запроса',
  },
];

const CASES: Case[] = [
  ...STATS_CASES,
  // the web's columns (§12.2) take the same request and refuse it the same way
  ...STATS_CASES.map((c) => ({ ...c, name: `columns ${c.name}`, url: '/api/project/stats/columns' })),
  {
    name: 'discount: bad period',
    method: 'POST',
    url: '/api/discount',
    body: { period: 'DECADE' },
    status: 400,
    field: 'period',
  },
  {
    name: 'discount: period missing',
    method: 'POST',
    url: '/api/discount',
    body: {},
    status: 400,
    field: 'period',
  },
  {
    name: 'discount: limit huge',
    method: 'POST',
    url: '/api/discount',
    body: { period: 'DAY', limit: HUGE },
    status: 400,
    field: 'limit',
  },
  {
    name: 'discount: rooms negative',
    method: 'POST',
    url: '/api/discount',
    body: { period: 'DAY', rooms: -2 },
    status: 400,
    field: 'rooms',
  },
  {
    name: 'discount: date invalid',
    method: 'POST',
    url: '/api/discount',
    body: { period: 'DAY', date: 'вчера' },
    status: 400,
    field: 'date',
  },
  {
    name: 'discount: unknown developer',
    method: 'POST',
    url: '/api/discount',
    body: { period: 'DAY', developerId: 424242 },
    status: 404,
    field: '424242',
  },
  {
    name: 'discount/project: SQL developer',
    method: 'POST',
    url: '/api/discount/project',
    body: { period: 'DAY', developerId: SQL },
    status: 400,
    field: 'developerId',
  },
  {
    name: 'discount/project: period wrong type',
    method: 'POST',
    url: '/api/discount/project',
    body: { period: 7 },
    status: 400,
    field: 'period',
  },
  {
    name: 'projects: developerId missing',
    method: 'GET',
    url: '/api/projects',
    status: 400,
    field: 'developerId',
  },
  {
    name: 'projects: developerId SQL',
    method: 'GET',
    url: `/api/projects?developerId=${encodeURIComponent('1 or 1=1')}`,
    status: 400,
    field: 'developerId',
  },
  {
    name: 'projects: unknown developer',
    method: 'GET',
    url: '/api/projects?developerId=9999',
    status: 404,
    field: '9999',
  },
  { name: 'flat: flatId negative', method: 'GET', url: '/api/flat?flatId=-5', status: 400, field: 'flatId' },
  {
    name: 'flat: flatId huge',
    method: 'GET',
    url: '/api/flat?flatId=99999999999999999999',
    status: 400,
    field: 'flatId',
  },
  { name: 'flat: unknown', method: 'GET', url: '/api/flat?flatId=77777', status: 404, field: '77777' },
  {
    name: 'summary/flat: text id',
    method: 'GET',
    url: '/api/summary/flat/abc',
    status: 400,
    field: 'flatId',
  },
  {
    name: 'price-changes: from not a date',
    method: 'GET',
    url: '/api/price-changes?from=01.01.2026&to=2026-01-01',
    status: 400,
    field: 'from',
  },
  {
    name: 'price-changes: from > to',
    method: 'GET',
    url: '/api/price-changes?from=2026-02-01&to=2026-01-01',
    status: 400,
    field: 'to',
  },
  {
    name: 'price-changes: bad kind',
    method: 'GET',
    url: '/api/price-changes?from=2026-01-01&to=2026-02-01&kind=SOLD',
    status: 400,
    field: 'kind',
  },
  {
    name: 'price-changes: bad sort (SQL)',
    method: 'GET',
    url: `/api/price-changes?from=2026-01-01&to=2026-02-01&sort=${encodeURIComponent('date; drop table flat')}`,
    status: 400,
    field: 'sort',
  },
  {
    name: 'price-changes: pageSize huge',
    method: 'GET',
    url: '/api/price-changes?from=2026-01-01&to=2026-02-01&pageSize=100000',
    status: 400,
    field: 'pageSize',
  },
  {
    name: 'price-changes.csv: page 0',
    method: 'GET',
    url: '/api/price-changes.csv?from=2026-01-01&to=2026-02-01&page=0',
    status: 400,
    field: 'page',
  },
  { name: 'search: empty', method: 'GET', url: '/api/search?q=', status: 400, field: 'q' },
  {
    name: 'search: too long',
    method: 'GET',
    url: `/api/search?q=${'я'.repeat(101)}`,
    status: 400,
    field: 'q',
  },
  { name: 'summaries: limit 0', method: 'GET', url: '/api/summaries?limit=0', status: 400, field: 'limit' },
  {
    name: 'summaries: before invalid',
    method: 'GET',
    url: '/api/summaries?before=2026-1-1',
    status: 400,
    field: 'before',
  },
  { name: 'summary: text id', method: 'GET', url: '/api/summary/x', status: 400, field: 'id' },
  { name: 'summary: unknown id', method: 'GET', url: '/api/summary/5555', status: 404, field: '5555' },
  {
    name: 'summary project: negative project',
    method: 'GET',
    url: '/api/summary/1/project/-1',
    status: 400,
    field: 'projectId',
  },
  {
    name: 'ingest: not a snapshot',
    method: 'POST',
    url: '/api/ingest/snapshots',
    body: { hello: 'world' },
    status: 400,
    field: 'date',
  },
  {
    name: 'ingest: SQL in a name',
    method: 'POST',
    url: '/api/ingest/snapshots',
    body: {
      date: '2026-01-01',
      developer: SQL,
      project: 'П',
      flats: [{ id: 1, building: '1', rooms: 1, area: 'много', price: 1 }],
    },
    status: 400,
    field: 'flats[0].area',
  },
  {
    name: 'ingest: empty array',
    method: 'POST',
    url: '/api/ingest/snapshots',
    body: [],
    status: 400,
    field: 'нет ни одного снимка',
  },
  {
    name: 'password: too short',
    method: 'POST',
    url: '/api/auth/password',
    body: { currentPassword: 'secret-pass', newPassword: '1' },
    status: 400,
    field: 'newPassword',
  },
  {
    name: 'password: wrong current',
    method: 'POST',
    url: '/api/auth/password',
    body: { currentPassword: SQL, newPassword: 'long-enough-2' },
    status: 400,
    field: 'currentPassword',
  },
  {
    name: 'login: username missing',
    method: 'POST',
    url: '/api/auth/login',
    body: { password: 'x' },
    status: 400,
    field: 'username',
  },
];

const POSTS = [
  '/api/project/stats',
  '/api/project/stats/columns',
  '/api/discount',
  '/api/discount/project',
  '/api/ingest/snapshots',
  '/api/auth/password',
  '/api/auth/login',
];

describeEachDb('bad input: the right 4xx naming the field, the database unchanged, never a 5xx', (ctx) => {
  let app: FastifyInstance;
  let auth: Record<string, string> = {};
  let before: unknown;

  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    await new Importer(ctx.db, 2).apply(
      validateSnapshot(
        {
          date: '2026-01-10',
          developer: 'Д',
          project: 'П',
          flats: [{ id: 'a', building: '1', rooms: 1, area: 40, price: 8e6 }],
        },
        { file: 't' },
      ),
    );
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'analyst', password: 'secret-pass' },
    });
    auth = { authorization: `Bearer ${login.json().token}` };
    before = await fingerprint(ctx.db);
  });
  afterAll(async () => app?.close());

  it.each(CASES)('$name → $status', async (c) => {
    const res = await app.inject({
      method: c.method,
      url: c.url,
      headers: auth,
      ...(c.body === undefined ? {} : { payload: c.body as object }),
    });
    expect(res.statusCode, res.body).toBe(c.status);
    expect(res.json().message).toContain(c.field);
    expect(res.json().code).toMatch(/^[A-Z_]+$/);
    expect(res.body).not.toMatch(/select |insert |\bat .*\.js:\d+/i);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it.each(POSTS)('%s: malformed JSON → 400, wrong content type → 415, oversized → 413', async (url) => {
    const malformed = await app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"period": "DAY",',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/JSON/);
    const text = await app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'period=DAY',
    });
    expect(text.statusCode).toBe(415);
    const limit = url === '/api/ingest/snapshots' ? 64 * 1024 * 1024 : 1024 * 1024;
    const big = await app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: `{"pad":"${'x'.repeat(limit)}"}`,
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/слишком велико/);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('fuzz: random JSON bodies to every POST endpoint never get a 5xx', async () => {
    const fields = fc.constantFrom(
      'projectId',
      'from',
      'to',
      'period',
      'date',
      'developerId',
      'rooms',
      'limit',
      'flats',
      'developer',
      'project',
      'username',
      'password',
      'currentPassword',
      'newPassword',
    );
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        '2026-01-10',
        '2026-02-31',
        'DAY',
        'YEAR',
        SQL,
        -1,
        0,
        2 ** 31,
        HUGE,
        Number.MAX_SAFE_INTEGER,
        '',
      ),
    );
    const body = fc.oneof(fc.dictionary(fields, value, { maxKeys: 6 }), fc.jsonValue({ maxDepth: 3 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POSTS), body, async (url, payload) => {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode, `${url} ${JSON.stringify(payload)} → ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 4242 },
    );
  });
});
