import { importResultSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonProblem } from '../../http/edge.js';
import { type Snapshot, SnapshotValidationError, validateSnapshot } from '../../ingest/snapshot.js';
import { BadRequestError } from '../../lib/errors.js';
import { applyImport } from '../../use-cases/imports.js';
import { actorOf } from '../actor.js';

const NDJSON = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
const ORIGIN = 'тело запроса';
export const INGEST_BODY_LIMIT = 64 * 1024 * 1024;

/** Snapshots of a JSON body (one object or an array) or an NDJSON body, validated as the CLI does. */
export function snapshotsOfBody(body: unknown, ndjson: boolean): Snapshot[] {
  const errors: string[] = [];
  const snapshots: Snapshot[] = [];
  const take = (raw: unknown, at: string) => {
    try {
      snapshots.push(validateSnapshot(raw, { file: ORIGIN, at }, 'api'));
    } catch (error) {
      if (error instanceof SnapshotValidationError) errors.push(...error.errors);
      else throw error;
    }
  };
  if (ndjson) {
    const lines = String(body ?? '').split(/\r?\n/);
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        errors.push(`${ORIGIN}: строка ${i + 1}: не удалось разобрать JSON`);
        return;
      }
      const problem = jsonProblem(parsed, 'снимок');
      if (problem) errors.push(`${ORIGIN}: строка ${i + 1}: ${problem}`);
      else take(parsed, `строка ${i + 1}`);
    });
  } else if (Array.isArray(body)) body.forEach((raw, i) => take(raw, `[${i}]`));
  else take(body, '');
  if (errors.length) throw new BadRequestError(errors.slice(0, 20).join('; '));
  if (snapshots.length === 0) throw new BadRequestError(`${ORIGIN}: нет ни одного снимка`);
  return snapshots;
}

export const ingestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(NDJSON, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post(
    '/ingest/snapshots',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      schema: {
        description: 'Снимки прайс-листов: JSON (объект или массив) или NDJSON, до 64 МБ. Всё или ничего.',
        response: { 200: z.array(importResultSchema) },
      },
    },
    async (request) => {
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      const snapshots = snapshotsOfBody(request.body, NDJSON.includes(type));
      // validated whole first, then applied in one transaction: all of the batch or none (§3.3)
      return applyImport(app.host, { snapshots }, actorOf(request));
    },
  );
};
