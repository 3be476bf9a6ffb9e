import { importResultSchema } from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../auth/actor.js';
import { jsonProblem } from '../../http/edge.js';
import { ndjsonItems } from '../../ingest/readers/ndjson.js';
import { type ReadItem, validated } from '../../ingest/readers/types.js';
import type { Snapshot } from '../../ingest/snapshot.js';
import { BadRequestError } from '../../lib/errors.js';
import { applyImport } from '../../use-cases/imports.js';

const NDJSON = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
const ORIGIN = 'тело запроса';
export const INGEST_BODY_LIMIT = 64 * 1024 * 1024;

/** Snapshots of a JSON body (one object or an array) or an NDJSON body, validated as the CLI does. */
export async function snapshotsOfBody(body: unknown, ndjson: boolean): Promise<Snapshot[]> {
  const errors: string[] = [];
  const snapshots: Snapshot[] = [];
  const take = (item: ReadItem) => {
    if ('errors' in item) errors.push(...item.errors);
    else snapshots.push(item.snapshot);
  };
  if (ndjson) {
    const lines = String(body ?? '').split(/\r?\n/);
    for await (const item of ndjsonItems(lines, ORIGIN, 'api', {}, (v) => jsonProblem(v, 'снимок')))
      take(item);
  } else if (Array.isArray(body))
    body.forEach((raw, i) => take(validated(raw, { file: ORIGIN, at: `[${i}]` }, 'api')));
  else take(validated(body, { file: ORIGIN, at: '' }, 'api'));
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
      const snapshots = await snapshotsOfBody(request.body, NDJSON.includes(type));
      // validated whole first, then applied in one transaction: all of the batch or none (§3.3)
      return applyImport(app.host, { snapshots }, actorOf(request));
    },
  );
};
