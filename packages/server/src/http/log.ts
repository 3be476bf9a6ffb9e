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
const REQUEST_FIELDS = 'pid,hostname,reqId,method,url,statusCode,ms';

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
 * Fastify's request lines, one short line per request when its response is sent: method, path, status
 * and milliseconds («GET /api/health 200 3 мс»), at info (a 5xx or a failed send at error), the fields
 * beside it for JSON — instead of Fastify's two lines with the whole request and response objects.
 */
class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime);
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms };
    const text = `${request.method} ${request.url} ${reply.statusCode} ${ms} мс`;
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
