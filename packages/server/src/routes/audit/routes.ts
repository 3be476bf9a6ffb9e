import { Readable } from 'node:stream';
import {
  AUDIT_ACTIONS,
  type AuditEntry,
  auditPageSchema,
  auditQuerySchema,
  CSV_BOM,
  csvLine,
} from '@cena-metra/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPage, auditRows } from '../../use-cases/reads.js';

const MOSCOW = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Moscow',
  dateStyle: 'short',
  timeStyle: 'medium',
});
const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

export const AUDIT_CSV_HEADER = ['Когда (МСК)', 'Кто', 'Адрес', 'Действие', 'Объект', 'До', 'После', 'Раз'];
export const auditCsvLine = (e: AuditEntry) =>
  csvLine([
    MOSCOW.format(new Date(e.at)),
    e.actor,
    e.address,
    AUDIT_ACTIONS[e.action] ?? e.action,
    e.target,
    json(e.before),
    json(e.after),
    e.count,
  ]);

/** The audit log (DESIGN §11.5), admins only: read, filtered, and downloaded. Nothing here writes it. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    '/audit',
    {
      schema: {
        description: 'Журнал действий, новые сверху: кто, когда, что, до → после, с какого адреса.',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => auditPage(db, request.query),
  );
  app.get(
    '/audit.csv',
    {
      schema: {
        description: 'Журнал действий по фильтру в CSV (все строки).',
        querystring: auditQuerySchema.omit({ offset: true, limit: true }),
      },
    },
    async (request, reply) => {
      const rows = auditRows(db, request.query);
      async function* lines() {
        yield `${CSV_BOM}${csvLine(AUDIT_CSV_HEADER)}\r\n`;
        for await (const e of rows) yield `${auditCsvLine(e)}\r\n`;
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(Readable.from(lines()));
    },
  );
};
