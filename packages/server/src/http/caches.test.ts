import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../read/encoding.js';
import { ResponseCache } from './caches.js';

describe('ResponseCache', () => {
  it('forgets everything when the data version changes', () => {
    const cache = new ResponseCache();
    cache.set('v1', 'a', '{"a":1}', 'application/json');
    expect(cache.get('v1', 'a')?.body).toBe('{"a":1}');
    expect(cache.get('v2', 'a')).toBeUndefined();
    expect(cache.get('v1', 'a')).toBeUndefined();
  });

  it('evicts the least recently used past its byte budget and skips an oversized body', () => {
    const cache = new ResponseCache(30, 12);
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

  it('compresses a body once per encoding and keeps it; small bodies stay as they are', () => {
    const cache = new ResponseCache();
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
