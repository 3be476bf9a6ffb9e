import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Fetching a developer's price list (DESIGN §10.8) with Node's own HTTP client (undici, behind `fetch`):
 * a timeout per attempt, retries with backoff on 5xx, 429 and network errors (honouring Retry-After),
 * conditional requests (an unchanged list answers 304), gzip/br decoded by the client, a size limit counted
 * while the body streams in, and a polite User-Agent.
 */

export const USER_AGENT = 'CenaMetra/1.0 (+https://github.com/cena-metra; price-list collector)';

export interface FetchOptions {
  headers?: Record<string, string>;
  /** validators of the last body: the server may answer 304 Not Modified */
  etag?: string | null;
  lastModified?: string | null;
  /** per attempt, ms */
  timeoutMs?: number;
  /** attempts after the first */
  retries?: number;
  /** first backoff, ms (doubled each time) */
  backoffMs?: number;
  /** the longest wait a Retry-After may ask for, ms */
  maxRetryAfterMs?: number;
  maxBytes?: number;
  /** write the body to this file instead of keeping it in memory (large feeds); `body` is then empty */
  toFile?: string;
}

export const FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  backoffMs: 1_000,
  maxRetryAfterMs: 120_000,
  maxBytes: 200 * 1024 * 1024,
} as const;

export type Fetched =
  | {
      status: 'ok';
      httpStatus: number;
      body: Buffer;
      /** bytes of the (decoded) body */
      bytes: number;
      etag: string | null;
      lastModified: string | null;
      attempts: number;
    }
  | { status: 'unchanged'; httpStatus: 304; attempts: number };

/** A failure to fetch, said for the run record and the sources page. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** Retry-After in ms: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const retryable = (status: number) => status === 429 || status >= 500;

async function readLimited(
  res: Response,
  maxBytes: number,
  toFile?: string,
): Promise<{ body: Buffer; bytes: number }> {
  const declared = Number(res.headers.get('content-length') ?? '');
  // a declared length is of the encoded body; the limit is checked on what is decoded too
  if (Number.isFinite(declared) && declared > maxBytes && !res.headers.get('content-encoding'))
    throw new FetchError(`ответ больше ${Math.round(maxBytes / 1048576)} МБ`, res.status);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!res.body) return { body: Buffer.alloc(0), bytes: 0 };
  const file = toFile ? createWriteStream(toFile) : null;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes)
        throw new FetchError(`ответ больше ${Math.round(maxBytes / 1048576)} МБ`, res.status);
      if (file) {
        if (!file.write(chunk)) await once(file, 'drain');
      } else chunks.push(Buffer.from(chunk));
    }
  } finally {
    if (file) await new Promise<void>((done) => file.end(() => done()));
  }
  return { body: file ? Buffer.alloc(0) : Buffer.concat(chunks, size), bytes: size };
}

/** GETs `url`, retrying what may pass; throws FetchError when it will not. */
export async function fetchList(url: string, options: FetchOptions = {}): Promise<Fetched> {
  const o = { ...FETCH_DEFAULTS, ...options };
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    'accept-encoding': 'gzip, br',
    ...o.headers,
  };
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  let last: FetchError = new FetchError('не запрошено');
  for (let attempt = 1; attempt <= o.retries + 1; attempt++) {
    let wait = o.backoffMs * 2 ** (attempt - 1);
    try {
      const res = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(o.timeoutMs) });
      if (res.status === 304) {
        await res.body?.cancel();
        return { status: 'unchanged', httpStatus: 304, attempts: attempt };
      }
      if (res.ok) {
        const { body, bytes } = await readLimited(res, o.maxBytes, o.toFile);
        return {
          status: 'ok',
          httpStatus: res.status,
          body,
          bytes,
          etag: res.headers.get('etag'),
          lastModified: res.headers.get('last-modified'),
          attempts: attempt,
        };
      }
      await res.body?.cancel();
      last = new FetchError(`HTTP ${res.status} ${res.statusText}`.trim(), res.status);
      if (!retryable(res.status)) throw last;
      const after = retryAfterMs(res.headers.get('retry-after'));
      if (after !== null) {
        if (after > o.maxRetryAfterMs)
          throw new FetchError(
            `HTTP ${res.status}: сервер просит подождать ${Math.round(after / 1000)} с`,
            res.status,
          );
        wait = after;
      }
    } catch (error) {
      // thrown above on purpose: a 4xx, a body over the limit, a Retry-After too long — final
      if (error instanceof FetchError) throw error;
      // a timeout, a refused or reset connection, a body cut short: worth another attempt
      const e = error as Error & { cause?: { code?: string; message?: string } };
      last = new FetchError(
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `нет ответа за ${Math.round(o.timeoutMs / 1000)} с`
          : `сеть: ${e.cause?.code ?? e.cause?.message ?? e.message}`,
      );
    }
    if (attempt <= o.retries) await sleep(wait);
  }
  throw new FetchError(`${last.message} (попыток: ${o.retries + 1})`, last.httpStatus);
}
