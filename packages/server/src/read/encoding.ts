import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

export type BodyEncoding = 'br' | 'gzip';

/** Brotli quality of every response: 11 (the default) takes seconds on a 3 MB stats body, 5 is close in size and fast. */
export const BROTLI_QUALITY = 5;

/** The encoding to answer in, from the request's Accept-Encoding: brotli, else gzip, else none. */
export function acceptedEncoding(header: string | string[] | undefined): BodyEncoding | null {
  const accepted = String(header ?? '');
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
}

/** A body compressed for sending and keeping (brotli at BROTLI_QUALITY, gzip at 6). */
export function compressBody(body: string | Buffer, encoding: BodyEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : gzipSync(body, { level: 6 });
}
