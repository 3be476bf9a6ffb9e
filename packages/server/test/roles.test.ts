import type { Role } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ROUTE_ACCESS } from '../src/auth/access.js';
import { addUser, createSession } from '../src/auth/users.js';
import { loadConfig } from '../src/config.js';
import { describeEachDb } from './databases.js';

// Each role × each route of the OpenAPI document → the status it gets (DESIGN §11.5). The expectations
// are written here, not read from auth/access.ts: the guard's table is held to this one.

type Expect = 'open' | 'signed-in' | 'export' | 'analyst' | 'admin';
const OPEN = [
  'GET /api/health',
  'POST /api/auth/login',
  'GET /api/auth/invite/{token}',
  'POST /api/auth/invite/{token}',
  'GET /api/summaries',
  'GET /api/summary/{id}',
  'GET /api/summary/{id}/project/{projectId}',
  'GET /api/summary/flat/{flatId}',
];
const EXPORTS = ['GET /api/price-changes.csv', 'GET /api/price-changes.xlsx'];
const ANALYST = [
  'GET /api/watches',
  'POST /api/watches',
  'PATCH /api/watches/{id}',
  'DELETE /api/watches/{id}',
  'GET /api/alerts',
  'POST /api/alerts/read',
];
const ADMIN = [
  'PUT /api/projects/{id}/place',
  'POST /api/ingest/snapshots',
  'GET /api/sources',
  'POST /api/sources',
  'PATCH /api/sources/{id}',
  'DELETE /api/sources/{id}',
  'POST /api/sources/{id}/run',
  'GET /api/sources/{id}/runs',
  'GET /api/users',
  'POST /api/users',
  'PATCH /api/users/{id}',
  'POST /api/users/{id}/invite',
  'DELETE /api/users/{id}/sessions',
  'GET /api/audit',
  'GET /api/audit.csv',
];
const expected = (route: string): Expect =>
  OPEN.includes(route)
    ? 'open'
    : EXPORTS.includes(route)
      ? 'export'
      : ANALYST.includes(route)
        ? 'analyst'
        : ADMIN.includes(route)
          ? 'admin'
          : 'signed-in';

/** Whether a role gets through to the route (not a 401/403), with viewers' exports on or off. */
function passes(role: Role | 'guest', want: Expect, viewersExport: boolean): boolean {
  if (want === 'open') return true;
  if (role === 'guest') return false;
  if (want === 'signed-in') return true;
  if (want === 'export') return role !== 'viewer' || viewersExport;
  if (want === 'analyst') return role !== 'viewer';
  return role === 'admin';
}

/** Path parameters that name nothing: a request that gets through ends in a 404 or a 400, never a change. */
const PATH_VALUES: Record<string, string> = { token: 'x'.repeat(32) };
const NOTHING = '999999';

for (const viewersExport of [true, false])
  describeEachDb(`every role × every route (VIEWERS_EXPORT=${viewersExport})`, (ctx) => {
    let app: FastifyInstance;
    const ids: Record<Role, number> = { admin: 0, analyst: 0, viewer: 0 };

    beforeAll(async () => {
      app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent', viewersExport }, {}) });
      await app.ready();
      ids.admin = (await addUser(ctx.db, 'boss', 'boss-password')).id;
      ids.analyst = (await addUser(ctx.db, 'ann', 'ann-password', 'analyst')).id;
      ids.viewer = (await addUser(ctx.db, 'vic', 'vic-password', 'viewer')).id;
    });
    afterAll(async () => app?.close());

    it('the guard table names exactly the routes of the OpenAPI document', () => {
      const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      const inTable = Object.keys(ROUTE_ACCESS).filter((r) => r !== 'GET /api/openapi.json');
      expect(documented.sort()).toEqual(inTable.sort());
    });

    it('each role gets through exactly where it may; elsewhere a 403, and a guest a 401', async () => {
      const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
      const seen: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths))
        for (const method of Object.keys(ops)) {
          const route = `${method.toUpperCase()} ${path}`;
          const url = path.replace(/\{(\w+)\}/g, (_m, n: string) => PATH_VALUES[n] ?? NOTHING);
          const want = expected(route);
          for (const role of ['guest', 'viewer', 'analyst', 'admin'] as const) {
            // a session of its own each time: a route that passes may end the one it came with (logout)
            const token = role === 'guest' ? null : await createSession(ctx.db, ids[role]);
            const res = await app.inject({
              method: method.toUpperCase() as 'GET',
              url,
              headers: {
                ...(token ? { authorization: `Bearer ${token}` } : {}),
                ...(method === 'get' || method === 'delete' ? {} : { 'content-type': 'application/json' }),
              },
              ...(method === 'get' || method === 'delete' ? {} : { payload: '{}' }),
            });
            const what = `${role} ${route}: ${res.statusCode} ${res.body.slice(0, 120)}`;
            if (passes(role, want, viewersExport)) {
              expect([401, 403], what).not.toContain(res.statusCode);
              expect(res.statusCode, what).toBeLessThan(500);
            } else {
              expect(res.statusCode, what).toBe(role === 'guest' ? 401 : 403);
              expect(res.json().code, what).toBe(role === 'guest' ? 'UNAUTHORIZED' : 'FORBIDDEN');
            }
            seen.push(`${role} ${route} ${res.statusCode}`);
          }
        }
      // every route asked four times, and nothing slipped past by being absent from the document
      expect(seen.length).toBe((Object.keys(ROUTE_ACCESS).length - 1) * 4);
    });

    it('a viewer reads the market but writes nothing, and is told why', async () => {
      const token = await createSession(ctx.db, ids.viewer);
      const res = await app.inject({
        method: 'POST',
        url: '/api/sources',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'x', kind: 'pik-api', url: 'https://example.com/' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/нет доступа: роль «Наблюдатель»/);
      const me = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.json()).toEqual({ username: 'vic', role: 'viewer', canExport: viewersExport });
    });
  });
