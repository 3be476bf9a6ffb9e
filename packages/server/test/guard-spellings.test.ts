import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { addUser, createSession } from '../src/db/queries/users.js';
import { concretePath, documentedRoutes, expected, passes } from './access-expectations.js';
import { describeEachDb } from './databases.js';
import { type RawResponse, rawRequest } from './raw-http.js';

// DESIGN §12.1: the guard decides on the route the router matched. Every route of the OpenAPI document is
// asked in many spellings of its address, written to a socket byte for byte, by a guest and by each role:
// a spelling the router matches is judged exactly as the canonical address, and one it cannot match is
// the same 404 (or 400/405) for everyone — never a way past the sign-in.

const hex = (c: string, lower = false) => {
  const h = Buffer.from(c, 'utf8').toString('hex').replace(/(..)/g, '%$1');
  return lower ? h : h.toUpperCase();
};

/** Spellings of an address that a router, a proxy or an attacker may read as it. */
export function spellings(path: string): { name: string; target: string }[] {
  const out: { name: string; target: string }[] = [{ name: 'canonical', target: path }];
  // each character but the slashes percent-encoded in turn
  for (let i = 0; i < path.length; i++)
    if (path[i] !== '/')
      out.push({ name: `%-encoded #${i}`, target: path.slice(0, i) + hex(path[i]) + path.slice(i + 1) });
  const rest = path.slice('/api'.length);
  const first = `/${hex('a', true)}pi${rest}`;
  out.push(
    { name: 'every character encoded', target: path.replace(/[^/]/g, (c) => hex(c)) },
    { name: 'lower-case hex', target: first },
    { name: 'doubly encoded', target: `/%25${hex('a').slice(1)}pi${rest}` },
    { name: 'upper case', target: path.toUpperCase() },
    { name: 'upper-case prefix', target: `/API${rest}` },
    { name: 'mixed-case prefix', target: `/Api${rest}` },
    { name: 'leading //', target: `/${path}` },
    { name: 'inner //', target: `/api/${rest}` },
    { name: 'leading /./', target: `/.${path}` },
    { name: 'inner /./', target: `/api/.${rest}` },
    { name: 'leading /x/../', target: `/x/..${path}` },
    { name: 'inner /x/../', target: `/api/x/..${rest}` },
    { name: 'encoded dot segment', target: `/x/%2E%2E${path}` },
    { name: 'encoded slash', target: `/api%2F${rest.slice(1)}` },
    { name: 'backslash', target: `/api\\${rest.slice(1)}` },
    { name: ';x at the end', target: `${path};x` },
    { name: ';x after /api', target: `/api;x${rest}` },
    { name: 'trailing /', target: `${path}/` },
    { name: 'query', target: `${path}?x=1` },
    { name: 'absolute form', target: `http://anything${path}` },
    { name: 'absolute form, encoded', target: `http://anything${first}` },
    { name: 'absolute form, upper-case scheme', target: `HTTP://anything:80${path}` },
    { name: 'absolute form with user-info', target: `http://user:pass@anything${path}` },
    { name: 'fullwidth letters, encoded', target: `/${hex('ａ')}${hex('ｐ')}${hex('ｉ')}${rest}` },
    { name: 'a zero-width space, encoded', target: `/api${hex('\u200b')}${rest}` },
    { name: 'a trailing encoded space', target: `${path}%20` },
    { name: 'a tab in the path', target: `/api/%09${rest.slice(1)}` },
  );
  return out;
}

const ROLES = ['guest', 'viewer', 'analyst', 'admin'] as const;
type Who = (typeof ROLES)[number];
const refusal = (r: RawResponse) => r.status === 401 || r.status === 403;
const codeOf = (r: RawResponse) => {
  try {
    return (JSON.parse(r.body) as { code?: string }).code ?? '';
  } catch {
    return '';
  }
};

describeEachDb('the guard × every spelling of every route × every role', (ctx) => {
  let app: FastifyInstance;
  let port = 0;
  const ids: Record<Role, number> = { admin: 0, analyst: 0, viewer: 0 };
  const tokens: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    // the web app served too: its history fallback must not answer an API address in another spelling
    const webRoot = mkdtempSync(join(tmpdir(), 'cm-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Цена метра</title>');
    app = await buildApp({
      db: ctx.db,
      webRoot,
      config: loadConfig({ logLevel: 'silent', viewersExport: false }, {}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    ids.admin = (await addUser(ctx.db, 'boss', 'boss-password')).id;
    ids.analyst = (await addUser(ctx.db, 'ann', 'ann-password', 'analyst')).id;
    ids.viewer = (await addUser(ctx.db, 'vic', 'vic-password', 'viewer')).id;
    for (const role of ['admin', 'analyst', 'viewer'] as const)
      tokens[role] = await createSession(ctx.db, ids[role]);
  });
  afterAll(async () => app?.close());

  /** One request as a role; a route that may end the session it came with gets a session of its own. */
  async function ask(who: Who, method: string, target: string, route: string): Promise<RawResponse> {
    let token = who === 'guest' ? undefined : tokens[who];
    if (who !== 'guest' && route.startsWith(`${method} /api/auth/`))
      token = await createSession(ctx.db, ids[who]);
    const write = method !== 'GET' && method !== 'DELETE';
    return rawRequest(
      port,
      method,
      target,
      {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(write ? { 'content-type': 'application/json' } : {}),
      },
      write ? '{}' : undefined,
    );
  }

  it('each spelling the router matches is judged as its route; the rest are the same answer for all', async () => {
    const routes = documentedRoutes(app.swagger());
    expect(routes.length).toBeGreaterThanOrEqual(60);
    let matched = 0;
    let unmatched = 0;
    const failures: string[] = [];
    for (const { method, path, route } of routes) {
      const want = expected(route);
      for (const { name, target } of spellings(concretePath(path))) {
        const answers = {} as Record<Who, RawResponse>;
        for (const who of ROLES) answers[who] = await ask(who, method, target, route);
        const all = ROLES.map((w) => answers[w]);
        const where = `${route} as «${target}» (${name}): ${ROLES.map((w) => `${w} ${answers[w].status}`).join(', ')}`;
        for (const r of all) if (r.status >= 500) failures.push(`${where}: ${r.body.slice(0, 100)}`);
        // not matched: one answer for everyone, and not a page of data
        const uniform = all.every((r) => r.status === all[0].status && codeOf(r) === codeOf(all[0]));
        if (uniform && [400, 404, 405].includes(all[0].status)) {
          unmatched++;
          continue;
        }
        matched++;
        for (const who of ROLES) {
          const r = answers[who];
          const may = passes(who, want, false);
          if (may && refusal(r)) failures.push(`${where}: ${who} refused`);
          if (!may) {
            const status = who === 'guest' ? 401 : 403;
            if (r.status !== status || codeOf(r) !== (status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN'))
              failures.push(`${where}: ${who} should get ${status}, got ${r.body.slice(0, 80)}`);
          }
          // whatever the spelling, an API answer that depends on who asks is kept by no cache
          if (r.status !== 304 && want !== 'open' && r.headers['cache-control'] !== 'no-store')
            failures.push(`${where}: ${who} cache-control «${r.headers['cache-control']}»`);
        }
      }
    }
    // the first of them, and how many (the note of issue 41 quotes this on the guard that read the URL)
    expect({
      failures: failures.length,
      first: failures.filter((f) => !f.includes('cache-control')).slice(0, 12),
    }).toEqual({
      failures: 0,
      first: [],
    });
    // both kinds happen: the router accepts some spellings (encoded letters, absolute form) and not others
    expect(matched).toBeGreaterThan(routes.length * 10);
    expect(unmatched).toBeGreaterThan(routes.length * 5);
  }, 600_000);
});
