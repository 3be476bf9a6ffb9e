import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapConfigResponseSchema } from '@cena-metra/contract';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { BASEMAP_URL } from '../src/routes/map/tiles.js';
import { describeEachDb } from './databases.js';
import { signedInApp } from './signed-in-app.js';

// «Рынок»'s basemap (issue 46): the operator's PMTiles served with range requests, the map's configuration,
// and the pages allowed to reach no other origin than an operator's style's.

const dir = mkdtempSync(join(tmpdir(), 'cena-tiles-'));
const file = join(dir, 'region.pmtiles');
const bytes = randomBytes(50_000);
writeFileSync(file, bytes);
writeFileSync(join(dir, 'secret.txt'), 'не для карты');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEachDb('the map’s basemap', (ctx) => {
  let users = 0;
  const appWith = (config: Parameters<typeof signedInApp>[1] = {}) =>
    signedInApp(ctx.db, config, undefined, `map${users++}`);
  it('the configuration names the basemap there is: none, our PMTiles, or an operator’s style (signed in)', async () => {
    for (const [config, expected] of [
      [{}, { basemap: 'none', url: null }],
      [{ mapPmtiles: file }, { basemap: 'pmtiles', url: BASEMAP_URL }],
      [
        { mapPmtiles: file, mapStyleUrl: 'https://maps.example.org/style.json' },
        { basemap: 'style', url: 'https://maps.example.org/style.json' },
      ],
    ] as const) {
      const { app, headers } = await appWith(config);
      const res = await app.inject({ method: 'GET', url: '/api/map/config', headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(mapConfigResponseSchema.parse(res.json())).toEqual(expected);
      expect((await app.inject({ method: 'GET', url: '/api/map/config' })).statusCode).toBe(401);
      // the pages may reach the operator's style's origin, and no other
      const csp = String(res.headers['content-security-policy']);
      const connect = csp
        .split(';')
        .find((d) => d.trim().startsWith('connect-src'))!
        .trim();
      expect(connect).toBe(
        'mapStyleUrl' in config ? "connect-src 'self' https://maps.example.org" : "connect-src 'self'",
      );
      expect(csp).toContain("worker-src 'self' blob:");
      await app.close();
    }
  });

  it('serves the archive by byte ranges: 206 with its range, the whole file 200, beyond it 416, a bad range 400', async () => {
    const { app } = await appWith({ mapPmtiles: file });
    const get = (range?: string, method: 'GET' | 'HEAD' = 'GET') =>
      app.inject({
        method,
        url: BASEMAP_URL,
        headers: { 'accept-encoding': 'gzip, br', ...(range && { range }) },
      });
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    // every range a client may ask, generated: the bytes of it, never compressed
    await fc.assert(
      fc.asyncProperty(fc.nat(bytes.length - 1), fc.nat(bytes.length * 2), async (a, n) => {
        const res = await get(`bytes=${a}-${a + n}`);
        const end = Math.min(bytes.length - 1, a + n);
        expect(res.statusCode).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes ${a}-${end}/${bytes.length}`);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.rawPayload.equals(bytes.subarray(a, end + 1))).toBe(true);
      }),
      { numRuns: 40, seed: 46 },
    );
    const tail = await get('bytes=-100');
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const from = await get('bytes=49990-');
    expect(from.rawPayload.equals(bytes.subarray(49_990))).toBe(true);
    const beyond = await get(`bytes=${bytes.length}-${bytes.length + 10}`);
    expect(beyond.statusCode, beyond.body).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
    for (const bad of ['bytes=abc', 'items=0-10', 'bytes=0-10,20-30']) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/^range: /);
    }
    const head = await get(undefined, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    await app.close();
  });

  it('no other file is reached, whatever the spelling; no archive configured is a 404', async () => {
    const { app } = await appWith({ mapPmtiles: file });
    const spellings = [
      '/tiles/secret.txt',
      '/tiles/../tiles/secret.txt',
      '/tiles/%2e%2e/tiles/secret.txt',
      '/tiles/..%2fsecret.txt',
      '/tiles/%2E%2E%2Fsecret.txt',
      '/tiles/basemap.pmtiles/../secret.txt',
      '/tiles/basemap.pmtiles%2f..%2fsecret.txt',
      '/tiles/region.pmtiles',
      '/tiles/%72egion.pmtiles',
    ];
    for (const url of spellings) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('не для карты');
      expect(res.rawPayload.equals(bytes), url).toBe(false);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
    }
    await app.close();
    const { app: bare } = await appWith();
    const none = await bare.inject({ method: 'GET', url: BASEMAP_URL });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toContain('MAP_PMTILES');
    await bare.close();
  });
});
