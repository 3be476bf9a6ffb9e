import { ERROR_CODES } from '@cena-metra/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, DISK_FULL_MESSAGE, isDatabaseUnavailable, isDiskFull } from '../lib/errors.js';
import { codeOfStatus, type RouteTable } from './edge.js';
import { canonicalPath, isApiPath } from './paths.js';

const FIELD_NAMES: Record<string, string> = {
  body: 'тело запроса',
  querystring: 'параметры запроса',
  params: 'путь',
};

function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .slice(0, 5)
      .map((v) => {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const field = path || FIELD_NAMES[error.validationContext ?? ''] || 'запрос';
        const message = v.message?.replace(/^[A-Za-z]+: /, '') ?? 'неверное значение';
        return message.startsWith(`${field}:`) ? message : `${field}: ${message}`;
      })
      .join('; ');
  }
  return error.message;
}

/** Fastify's and its plugins' English 4xx texts in our words (the status says what happened). */
function clientMessage(error: FastifyError, status: number): string {
  if (status === 403) return 'доступ запрещён';
  if (status === 404) return 'не найдено';
  if (/^[ -~]*$/.test(error.message)) return `некорректный запрос (${error.message.slice(0, 200)})`;
  return error.message;
}

/**
 * Every error as `{message, code}` with its status (DESIGN §5): domain errors as they say, bad input as a
 * 400 naming the field, Fastify's own 4xx in Russian, a full disk or a database that is down as 507/503,
 * anything else a 500 with the detail in the log only. Unknown addresses: the web app's page (history
 * fallback), a 405 naming the allowed methods, or a 404.
 */
export const errorHandlers = fp(
  async (app: FastifyInstance, opts: { routes: RouteTable; webApp: boolean }) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        return reply.status(error.statusCode).send({ message: error.message, code: error.code });
      }
      if (error.validation) {
        return reply.status(400).send({ message: validationMessage(error), code: ERROR_CODES.validation });
      }
      const status = error.statusCode ?? 500;
      if (status === 413)
        return reply
          .status(413)
          .send({ message: 'тело запроса слишком велико', code: ERROR_CODES.payloadTooLarge });
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return reply.status(415).send({
          message: 'неподдерживаемый Content-Type: ожидается application/json',
          code: ERROR_CODES.unsupportedMediaType,
        });
      if (
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        (status === 400 && error instanceof SyntaxError)
      )
        return reply
          .status(400)
          .send({ message: 'тело запроса: некорректный JSON', code: ERROR_CODES.badRequest });
      if (status >= 400 && status < 500) {
        return reply
          .status(status)
          .send({ message: clientMessage(error, status), code: codeOfStatus(status) });
      }
      if (isDiskFull(error)) {
        request.log.error({ err: error }, 'нет места на диске');
        return reply.status(507).send({ message: DISK_FULL_MESSAGE, code: ERROR_CODES.unavailable });
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'база данных недоступна');
        return reply.status(503).header('retry-after', '5').send({
          message: 'база данных недоступна, повторите запрос через несколько секунд',
          code: ERROR_CODES.unavailable,
        });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'внутренняя ошибка сервера', code: ERROR_CODES.internal });
    });
    app.setNotFoundHandler((request, reply) => {
      // what the address names however it is spelled (an API path in any case or encoding is the API's)
      const path = canonicalPath(request.url);
      // history fallback: any non-API page address gets the app, which routes it in the browser
      if (opts.webApp && request.method === 'GET' && !isApiPath(path) && !path.startsWith('/assets/'))
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      if (isApiPath(path)) reply.header('cache-control', 'no-store');
      const allowed = opts.routes.allowedMethods(path);
      if (allowed.length && !allowed.includes(request.method))
        return reply
          .status(405)
          .header('allow', allowed.join(', '))
          .send({
            message: `метод ${request.method} не поддерживается для ${path}: допустимо ${allowed.join(', ')}`,
            code: ERROR_CODES.methodNotAllowed,
          });
      return reply.status(404).send({
        message: `не найдено: ${request.method} ${path}`,
        code: ERROR_CODES.notFound,
      });
    });
  },
  { name: 'errors' },
);
