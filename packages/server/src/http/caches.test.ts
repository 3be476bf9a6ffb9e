import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../read/encoding.js';
import { ProjectCache, ReadCache } from '../read/read-cache.js';
import { MAX_RESPONSE_BYTES, ResponseCache } from './caches.js';

describe('ResponseCache', () => {
  it('forgets everything when the data version changes', () => {
    const cache = new ResponseCache(new ReadCache());
    cache.set('v1', 'a', '{"a":1}', 'application/json');
    expect(cache.get('v1', 'a')?.body).toBe('{"a":1}');
    expect(cache.get('v2', 'a')).toBeUndefined();
    expect(cache.get('v1', 'a')).toBeUndefined();
  });

  it('evicts the least recently used past its byte budget and skips an oversized body', () => {
    const cache = new ResponseCache(new ReadCache(30), 12);
    cache.set('v', 'a', 'a'.repeat(10), 't');
    cache.set('v', 'b', 'b'.repeat(10), 't');
    cache.get('v', 'a'); // a is now the most recent
    cache.set('v', 'c', 'c'.repeat(10), 't');
    cache.set('v', 'd', 'd'.repeat(10), 't'); // 40 bytes: the oldest (b) goes
    expect(cache.get('v', 'b')).toBeUndefined();
    expect(cache.get('v', 'a')?.body).toBe('a'.repeat(10));
    cache.set('v', 'big', 'x'.repeat(13), 't');
    expect(cache.get('v', 'big')).toBeUndefined();
  });

  it('keeps the whole market’s ranking by default (1.6 MB at 5,000 projects), not a body past the limit', () => {
    const cache = new ResponseCache(new ReadCache());
    cache.set('v', 'market', 'm'.repeat(1_700_000), 'application/json');
    expect(cache.get('v', 'market')?.body.length).toBe(1_700_000);
    cache.set('v', 'huge', 'h'.repeat(MAX_RESPONSE_BYTES + 1), 'application/json');
    expect(cache.get('v', 'huge')).toBeUndefined();
  });

  it('compresses a body once per encoding and keeps it; small bodies stay as they are', () => {
    const cache = new ResponseCache(new ReadCache());
    const json = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i })));
    cache.set('v', 'k', json, 'application/json');
    const entry = cache.get('v', 'k')!;
    const gz = cache.encoded(entry, 'gzip') as Buffer;
    expect(gunzipSync(gz).toString()).toBe(json);
    expect(cache.encoded(entry, 'gzip')).toBe(gz);
    expect(cache.encoded(entry, null)).toBe(json);
    cache.set('v', 'small', '{}', 'application/json');
    expect(cache.encoded(cache.get('v', 'small')!, 'br')).toBe('{}');
  });

  it('answers in brotli when taken, else gzip, else as it is', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip');
    expect(acceptedEncoding(['identity'])).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding('brotli-ish, xgzip')).toBeNull();
  });
});

describe('ReadCache: one byte budget for every reader and the responses', () => {
  it('evicts the least recently used of any kind past the budget', async () => {
    const shared = new ReadCache(100);
    const stats = new ProjectCache<string>(shared, 'stats', (v) => v.length);
    const pace = new ProjectCache<string>(shared, 'pace', (v) => v.length);
    await stats.get(1, 1, () => 's'.repeat(40));
    await pace.get(1, 1, () => 'p'.repeat(40));
    expect(shared.bytes).toBe(80);
    await stats.get(1, 1, () => 'never made');
    await pace.get(2, 1, () => 'q'.repeat(40)); // 120 > 100: pace of project 1, the oldest, goes
    expect(shared.bytes).toBe(80);
    let made = 0;
    expect(await pace.get(1, 1, () => String(++made))).toBe('1');
    expect(await stats.get(1, 1, () => 'again')).toBe('s'.repeat(40));
  });

  it('replaces a stale version and measures a value again after it grew', async () => {
    const shared = new ReadCache(100);
    const cache = new ProjectCache<string[]>(shared, 'chess', (v) => v.join('').length);
    const value = await cache.get(7, 1, () => ['a'.repeat(10)]);
    expect(await cache.get(7, 2, () => ['b'.repeat(20)])).toEqual(['b'.repeat(20)]);
    expect(shared.bytes).toBe(20);
    const grown = await cache.get(7, 2, () => []);
    grown.push('c'.repeat(30));
    cache.grown(7);
    expect(shared.bytes).toBe(50);
    // grown past the whole budget: not kept
    grown.push('d'.repeat(60));
    cache.grown(7);
    expect(shared.size).toBe(0);
    expect(value).toEqual(['a'.repeat(10)]);
  });

  it('keeps the responses in the same budget: a new data version drops the old one’s', () => {
    const shared = new ReadCache(1000);
    const responses = new ResponseCache(shared);
    responses.set('v1', 'a', 'x'.repeat(100), 't');
    responses.set('v1', 'b', 'y'.repeat(100), 't');
    expect(shared.bytes).toBe(200);
    responses.set('v2', 'a', 'z'.repeat(50), 't');
    expect(shared.bytes).toBe(50);
  });
});
