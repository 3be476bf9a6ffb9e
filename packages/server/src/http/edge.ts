import type { Socket } from 'node:net';
import {
  CONTROL_CHARACTERS_MESSAGE,
  ERROR_CODES,
  type ErrorCode,
  hasControlCharacters,
  hasForbiddenInSecret,
  SECRET_FIELDS,
} from '@cena-metra/contract';
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../lib/errors.js';

/** Deepest nesting a JSON body may have: our largest shape (a snapshot) is four levels deep. */
export const MAX_BODY_DEPTH = 32;

/** The error code of a 4xx/5xx status that no domain error chose (one shape from the edge to the screen). */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ERROR_CODES.unauthorized;
    case 403:
      return ERROR_CODES.forbidden;
    case 404:
      return ERROR_CODES.notFound;
    case 405:
      return ERROR_CODES.methodNotAllowed;
    case 408:
      return ERROR_CODES.timeout;
    case 409:
      return ERROR_CODES.conflict;
    case 413:
      return ERROR_CODES.payloadTooLarge;
    case 414:
      return ERROR_CODES.uriTooLong;
    case 415:
      return ERROR_CODES.unsupportedMediaType;
    case 429:
      return ERROR_CODES.tooManyRequests;
    case 431:
      return ERROR_CODES.headersTooLarge;
    case 503:
    case 507:
      return ERROR_CODES.unavailable;
    default:
      return status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badRequest;
  }
}

/** A JSON path for messages: flats[3].building, or the part of the request when at the top. */
function pathText(path: (string | number)[], top: string): string {
  if (path.length === 0) return top;
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('')
    .replace(/^\./, '');
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
  depth: number;
}

/** The path of a visited value, built only when there is something to report. */
function pathOf(visit: Visit | null): (string | number)[] {
  const path: (string | number)[] = [];
  for (let v = visit; v && v.key !== null; v = v.parent) path.unshift(v.key);
  return path;
}

/**
 * Checks a parsed JSON value without recursion (a body of 100,000 nested arrays must not overflow the
 * stack): refuses nesting deeper than MAX_BODY_DEPTH and any text (key or value) with control characters,
 * naming the place. Returns the problem or null. Each value costs one small object, not a copy of its path
 * (a 64 MB ingest body has millions of values).
 */
export function jsonProblem(value: unknown, top = 'тело запроса'): string | null {
  const stack: Visit[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      // a value may span lines (a promo, an address); a one-line field is held to that by its schema; a
      // password is never shown: only what is not text is refused in it
      const bad =
        typeof visit.key === 'string' && SECRET_FIELDS.includes(visit.key)
          ? hasForbiddenInSecret(v)
          : hasControlCharacters(v, true);
      if (bad) return `${pathText(pathOf(visit), top)}: ${CONTROL_CHARACTERS_MESSAGE}`;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (visit.depth >= MAX_BODY_DEPTH)
      return `${pathText(pathOf(visit).slice(0, 3), top)}…: вложенность глубже ${MAX_BODY_DEPTH} уровней`;
    const depth = visit.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit, depth });
    } else {
      for (const [key, item] of Object.entries(v)) {
        if (hasControlCharacters(key))
          return `${pathText(pathOf(visit), top)}: имя поля ${CONTROL_CHARACTERS_MESSAGE}`;
        stack.push({ value: item, key, parent: visit, depth });
      }
    }
  }
  return null;
}

/** The problem of a request's address: malformed percent-encoding or control characters, naming the parameter. */
export function urlProblem(url: string): string | null {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return 'адрес запроса: неверная кодировка (%)';
  }
  if (hasControlCharacters(decodedPath)) return `адрес запроса: ${CONTROL_CHARACTERS_MESSAGE}`;
  if (q < 0) return null;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return `параметры запроса: неверная кодировка (%) в «${part.slice(0, 40)}»`;
    }
    if (hasControlCharacters(key)) return `параметры запроса: имя ${CONTROL_CHARACTERS_MESSAGE}`;
    // as in a body: a one-line parameter is held to that by its schema
    if (hasControlCharacters(value, true)) return `${key}: ${CONTROL_CHARACTERS_MESSAGE}`;
  }
  return null;
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'заголовки запроса слишком велики' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'запрос не получен целиком вовремя' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, message: 'заголовки запроса не получены вовремя' },
};

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers too large, a malformed request
 * line, a timeout) is answered in the API's one error shape and the connection closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'некорректный HTTP-запрос' };
  const body = JSON.stringify({ message: known.message, code: codeOfStatus(known.status) });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
    known.status
  ];
  socket.end(
    `HTTP/1.1 ${known.status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Registers the edge checks every request passes before its route: an address with malformed encoding or
 * control characters and a JSON body nested too deep or holding control characters are a 400 naming the
 * place; a known path asked with another method is a 405 with `Allow` (see `allowedMethods`).
 */
export function registerEdgeChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const problem = urlProblem(request.url);
    if (problem) throw new BadRequestError(problem);
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null || typeof request.body === 'string') return;
    const problem = jsonProblem(request.body);
    if (problem) throw new BadRequestError(problem);
  });
}

/** Route patterns by method, collected as routes are added: a 404 on a known path becomes a 405. */
export class RouteTable {
  private readonly routes: { pattern: RegExp; method: string }[] = [];

  constructor(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url.includes('*')) return;
      const pattern = new RegExp(
        `^${route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`,
      );
      for (const method of methods) this.routes.push({ pattern, method: String(method).toUpperCase() });
    });
  }

  /** Methods a path (canonical: http/paths.ts) answers to (empty when no route has the path). */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) methods.add(r.method);
    return METHODS.filter((m) => methods.has(m));
  }
}
