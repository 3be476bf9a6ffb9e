import type { Role } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ROUTE_ACCESS } from '../src/auth/access.js';
import { loadConfig } from '../src/config.js';
import { addUser, createSession } from '../src/db/queries/users.js';
import { concretePath, expected, passes } from './access-expectations.js';
import { describeEachDb } from './databases.js';

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
      const inTable = Object.keys(ROUTE_ACCESS).filter(
        (r) => r !== 'GET /api/openapi.json' && r !== 'OPTIONS *',
      );
      expect(documented.sort()).toEqual(inTable.sort());
    });

    it('each role gets through exactly where it may; elsewhere a 403, and a guest a 401', async () => {
      const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
      const seen: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths))
        for (const method of Object.keys(ops)) {
          const route = `${method.toUpperCase()} ${path}`;
          const url = concretePath(path);
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
      expect(seen.length).toBe((Object.keys(ROUTE_ACCESS).length - 2) * 4);
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
