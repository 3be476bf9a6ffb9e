import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/** How log lines are written: for a person at a terminal, or one JSON object a line for a collector. */
export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT when it is set, else lines for a person when the output is a terminal and JSON when not. */
export function logFormatFor(asked: LogFormat | undefined, stream: { isTTY?: boolean }): LogFormat {
  return asked ?? (stream.isTTY ? 'pretty' : 'json');
}

/** The fields of a request line that a person does not need on a terminal (they stay in JSON). */
const REQUEST_FIELDS = 'pid,hostname,reqId,method,url,statusCode,ms,userId,ip';

/** Path parameters and query fields that hold a secret (a one-time link's token, a code): never logged. */
const SECRET_NAMES = /^(token|code|password|secret|key|invite)$/i;
const SECRET_MARK = '***';

/**
 * The address of a request as its log line shows it (DESIGN §12.1): the matched route with its parameters,
 * a secret one (an invite's token) as ***, and the query with secret fields as ***; a request no route
 * matched keeps its path, a one-time link's token in it masked all the same.
 */
export function loggedUrl(request: FastifyRequest): string {
  const raw = request.url;
  const q = raw.indexOf('?');
  let path = q < 0 ? raw : raw.slice(0, q);
  const route = request.routeOptions.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (route && Object.keys(params).some((name) => SECRET_NAMES.test(name)))
    path = route.replace(/:(\w+)/g, (_m, name: string) =>
      SECRET_NAMES.test(name) ? SECRET_MARK : encodeURIComponent(String(params[name] ?? '')),
    );
  else path = path.replace(/(\/invite\/)[^/]+/gi, `$1${SECRET_MARK}`);
  if (q < 0) return path;
  const query = raw
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq > 0 && SECRET_NAMES.test(part.slice(0, eq)) ? `${part.slice(0, eq)}=${SECRET_MARK}` : part;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * The process's logger (pino; pino-pretty for a terminal, docs/decisions.md): time, level and the message,
 * which is Russian; in JSON every field. Written synchronously, so nothing is lost when the process exits.
 */
export function createLogger(
  level: string,
  format: LogFormat,
  destination: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): Logger {
  if (format === 'json') return pino({ level }, destination);
  return pino(
    { level },
    pretty({
      destination,
      sync: true,
      colorize: Boolean(destination.isTTY),
      translateTime: 'SYS:HH:MM:ss',
      ignore: REQUEST_FIELDS,
      singleLine: true,
    }),
  );
}

/**
 * Fastify's request lines, one short line per request when its response is sent: method, path, status,
 * milliseconds, who (the user's id) and from where («GET /api/health 200 3 мс · 127.0.0.1», «… · польз. 5 ·
 * 127.0.0.1»), at info (a 5xx or a failed send at error), the fields beside it for JSON — instead of
 * Fastify's two lines with the whole request and response objects. Never a token or a link's code.
 */
class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime);
    const url = loggedUrl(request);
    const userId = request.user?.id ?? null;
    const line = { method: request.method, url, statusCode: reply.statusCode, ms, userId, ip: request.ip };
    const who = userId === null ? '' : ` · польз. ${userId}`;
    const text = `${request.method} ${url} ${reply.statusCode} ${ms} мс${who} · ${request.ip}`;
    if (error || reply.statusCode >= 500) request.log.error(error ? { ...line, err: error } : line, text);
    else request.log.info(line, text);
  }
}

/** Fastify's options for the process's logger: it, with the request lines above; none without it. */
export function fastifyLogging(logger: Logger | false | undefined) {
  return logger
    ? { loggerInstance: logger as FastifyBaseLogger, logController: new RequestLines() }
    : { logger: false };
}
