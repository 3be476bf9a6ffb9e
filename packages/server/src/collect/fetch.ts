import { once } from 'node:events';
import { createWriteStream, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent, Response } from 'undici';
import {
  type AddressPolicy,
  bareHost,
  checkedAddresses,
  defaultPolicy,
  ForbiddenAddressError,
  forbiddenAddress,
  isAllowedHost,
} from './address-guard.js';
import { LOCAL_PROTOCOL, readLocalFeed } from './local-feeds.js';

/**
 * Fetching a developer's price list (DESIGN §10.8) with undici (Node's own HTTP client, as a package for its
 * connection options): a timeout per attempt, retries with backoff on 5xx, 429 and network errors
 * (honouring Retry-After), conditional requests (an unchanged list answers 304), gzip/br decoded by the
 * client, a size limit counted while the body streams in, and a polite User-Agent. Never inside the network
 * (DESIGN §11.5): every hop's address is checked before it is asked (address-guard.ts), redirects are
 * followed here, each checked the same way, and the connection itself resolves the host through the same
 * check, so a name cannot point elsewhere between the check and the connection (DNS rebinding).
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
  /** where a collection may go (default: COLLECT_ALLOW_HOSTS and the system's resolver) */
  policy?: AddressPolicy;
}

/** undici, loaded by the first collection (~100 ms of a server's start otherwise: docs/performance.md). */
type Undici = typeof import('undici');
/** A collection's connections (guardedAgent) and undici's fetch. */
type Client = { agent: Agent; fetch: Undici['fetch'] };

/** Redirects followed, each hop checked: more is a loop or a trap. */
const MAX_REDIRECTS = 5;

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

/**
 * The connections of one collection: the host resolved by the policy's resolver and every address checked
 * at the moment of connecting (an allowed host as it resolves). Node connects to an IP address without a
 * lookup: those are checked before each request.
 */
function guardedAgent(undici: Undici, policy: AddressPolicy): Agent {
  return new undici.Agent({
    connect: {
      lookup: ((
        hostname: string,
        options: { all?: boolean },
        callback: (error: Error | null, address: unknown, family?: number) => void,
      ) => {
        const host = bareHost(hostname);
        const resolved = isIP(host)
          ? Promise.resolve([{ address: host, family: isIP(host) }])
          : policy.resolve(host);
        resolved
          .then((addresses) => {
            if (!isAllowedHost(policy, host))
              for (const a of addresses) {
                const why = forbiddenAddress(a.address);
                if (why)
                  throw new ForbiddenAddressError(
                    `url: ${host} ведёт во внутреннюю сеть (${a.address}: ${why})`,
                  );
              }
            if (addresses.length === 0) throw new Error(`ENOTFOUND ${host}`);
            if (options.all) callback(null, addresses);
            else callback(null, addresses[0].address, addresses[0].family);
          })
          .catch((error: Error) => callback(error, undefined));
      }) as never,
    },
  });
}

/** A feed of this server's own, read in-process (local-feeds.ts). */
function local(url: string, toFile?: string): Fetched {
  let body: Buffer;
  try {
    body = readLocalFeed(new URL(url));
  } catch (error) {
    throw new FetchError((error as Error).message);
  }
  if (toFile) writeFileSync(toFile, body);
  return {
    status: 'ok',
    httpStatus: 200,
    body: toFile ? Buffer.alloc(0) : body,
    bytes: body.length,
    etag: null,
    lastModified: null,
    attempts: 1,
  };
}

/** A refusal of the address guard, wherever undici wraps it. */
function refusal(error: unknown): ForbiddenAddressError | null {
  for (let e = error as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as never, i++)
    if (e instanceof ForbiddenAddressError) return e;
  return null;
}

/** Headers that carry a credential: sent to the source's own origin only, never after a redirect elsewhere. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * A URL's user-info (`user:password@`, DESIGN §12.1) as the Basic credentials it means, and the URL without
 * it (a request is never made to a URL that carries credentials, nor are they logged with it).
 */
export function withoutUserInfo(url: string): { url: string; authorization: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, authorization: null };
  }
  if (!parsed.username && !parsed.password) return { url, authorization: null };
  const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}

/**
 * GETs `url` following redirects itself, each hop's address checked first; credentials go to the first
 * origin only.
 */
async function guardedGet(
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
  policy: AddressPolicy,
  client: Client,
): Promise<Response> {
  let current = url;
  let headers = init.headers;
  const origin = new URL(url).origin;
  for (let hop = 0; ; hop++) {
    await checkedAddresses(current, policy, 'url');
    const res = await client.fetch(current, {
      ...init,
      headers,
      redirect: 'manual',
      dispatcher: client.agent,
    });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
    await res.body?.cancel();
    if (hop === MAX_REDIRECTS) throw new FetchError(`больше ${MAX_REDIRECTS} перенаправлений`, res.status);
    current = new URL(location, current).toString();
    if (new URL(current).origin !== origin)
      headers = Object.fromEntries(
        Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())),
      );
  }
}

/** GETs `url`, retrying what may pass; throws FetchError when it will not. */
export async function fetchList(url: string, options: FetchOptions = {}): Promise<Fetched> {
  const o = { ...FETCH_DEFAULTS, ...options };
  if (url.startsWith(LOCAL_PROTOCOL)) return local(url, o.toFile);
  const bare = withoutUserInfo(url);
  // the source's own Authorization header wins over its URL's user-info
  if (bare.authorization && !Object.keys(o.headers ?? {}).some((k) => k.toLowerCase() === 'authorization'))
    o.headers = { ...o.headers, authorization: bare.authorization };
  const policy = o.policy ?? defaultPolicy();
  const undici = await import('undici');
  const client = { agent: guardedAgent(undici, policy), fetch: undici.fetch };
  try {
    return await attempts(bare.url, o, policy, client);
  } finally {
    await client.agent.close().catch(() => {});
  }
}

async function attempts(
  url: string,
  o: FetchOptions & { [K in keyof typeof FETCH_DEFAULTS]: number },
  policy: AddressPolicy,
  client: Client,
): Promise<Fetched> {
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
      const res = await guardedGet(
        url,
        { headers, signal: AbortSignal.timeout(o.timeoutMs) },
        policy,
        client,
      );
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
      // an address inside the network: final, nothing was asked of it
      const refused = refusal(error);
      if (refused) throw new FetchError(refused.message);
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
