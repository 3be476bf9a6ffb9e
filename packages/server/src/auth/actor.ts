import type { FastifyRequest } from 'fastify';
import type { Actor } from '../db/queries/audit.js';

/** The signed-in user of a request as the audit log names them, with the address they came from. */
export function actorOf(request: FastifyRequest): Actor {
  return {
    id: request.user?.id ?? null,
    name: request.user?.username ?? 'гость',
    address: request.ip ?? null,
  };
}
