import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/driver.js';
import { auditRefusal, type Refusal } from '../db/queries/audit.js';
import { canonicalPath } from '../http/paths.js';
import { actorOf } from './actor.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOGIN = 'POST /api/auth/login';

/** What a refused answer is in the audit log, and on what; null when it is not audited. */
function refusalOf(request: FastifyRequest, status: number): { action: Refusal; target: string } | null {
  // every answer passes here: nothing is made for one that is not refused
  if (status !== 429 && status !== 401 && status !== 403) return null;
  const route = `${request.method} ${request.routeOptions.url ?? canonicalPath(request.url)}`;
  if (status === 429) return { action: 'access.throttled', target: route };
  if (route === LOGIN) {
    const tried = (request.body as { username?: unknown } | undefined)?.username;
    return {
      action: 'auth.login_failed',
      target: typeof tried === 'string' ? tried.trim().slice(0, 100) : '',
    };
  }
  return READS.has(request.method) ? null : { action: 'access.denied', target: route };
}

/**
 * Refused attempts in the audit log (DESIGN §12.1): a failed sign-in (the name tried and the address), a
 * 401 or 403 on a write, a 429 — written before the answer leaves, one row per address, action and minute
 * with a count (audit/log.ts), so a flood does not grow the log. A failure to write it is logged, and the
 * answer is sent as it was.
 */
export const refusalAudit = fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const refusal = refusalOf(request, reply.statusCode);
      if (!refusal) return payload;
      try {
        await auditRefusal(opts.db, actorOf(request), refusal.action, refusal.target);
      } catch (error) {
        request.log.warn({ err: error }, 'журнал: отказ не записан');
      }
      return payload;
    });
  },
  { name: 'refusal-audit', dependencies: ['bearer-auth'] },
);
