import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflate } from './kept.js';

/** A kept month's likeness: JSON-ish text that compresses as the series do. */
const text = (bytes: number) =>
  Buffer.from(
    Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => `{"date":"2025-0${i % 9}","avg":${i * 37},`)
      .join('')
      .slice(0, bytes),
  );

describe('inflate (a kept gzip body)', () => {
  it('gives the bytes gunzip gives, for every size from empty to megabytes', () => {
    for (const size of [0, 1, 63, 64, 65, 4096, 16 * 1024, 16 * 1024 + 1, 100_000, 3_000_000]) {
      const raw = size % 2 ? randomBytes(size) : text(size);
      const body = gzipSync(raw, { level: 1 });
      expect(inflate(body).equals(raw), `size ${size}`).toBe(true);
      expect(inflate(body).equals(gunzipSync(body))).toBe(true);
    }
  });

  it('inflates into one buffer of the size the trailer says, not into 16 KB pieces joined', () => {
    const raw = text(300_000);
    const out = inflate(gzipSync(raw));
    expect(out.length).toBe(raw.length);
    // one output chunk of ISIZE + 1 bytes, of which the answer is a view; gunzipSync's default joins a copy
    expect(out.buffer.byteLength).toBe(raw.length + 1);
    expect(gunzipSync(gzipSync(raw)).buffer.byteLength).not.toBe(raw.length + 1);
  });

  it('still inflates the whole body when the trailer understates it (several members, a view of a larger buffer)', () => {
    const a = text(50_000);
    const b = text(70_000);
    // two gzip members one after another: the trailer read is the second's (70,000), the whole is 120,000
    const twoMembers = Buffer.concat([gzipSync(a), gzipSync(b)]);
    expect(inflate(twoMembers).equals(Buffer.concat([a, b]))).toBe(true);
    // a body that is a view into a larger buffer (as a column decoded from base64 may be)
    const body = gzipSync(a);
    const host = Buffer.concat([Buffer.alloc(7, 1), body, Buffer.alloc(5, 2)]);
    expect(inflate(host.subarray(7, 7 + body.length)).equals(a)).toBe(true);
    expect(inflate(new Uint8Array(host.buffer, host.byteOffset + 7, body.length)).equals(a)).toBe(true);
  });

  it('refuses a body that is not gzip, or whose trailer lies about its size, as gunzip does', () => {
    expect(() => inflate(Buffer.from('not gzip at all, not at all'))).toThrow();
    const body = Buffer.from(gzipSync(text(1000)));
    // a damaged trailer claiming ~4 GB: refused (zlib checks the length), not answered with a huge buffer
    body.writeUInt32LE(0xfffffff0, body.length - 4);
    expect(() => gunzipSync(body)).toThrow();
    expect(() => inflate(body)).toThrow();
  });
});
