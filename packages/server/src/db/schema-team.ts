import { bigserial, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appUser } from './schema.js';

// A team's tables (§11.5, migration 21): one-time links and the audit log.

export const userInvite = pgTable('user_invite', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => appUser.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Never updated or deleted: the database refuses (a trigger), but for the count of a refused attempt's row.
 * No foreign key: a removed user's rows stay.
 */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  actorId: integer('actor_id'),
  actor: text('actor').notNull(),
  address: text('address'),
  action: text('action').notNull(),
  target: text('target').notNull(),
  before: jsonb('before'),
  after: jsonb('after'),
  /** how many times a refused attempt happened in its bucket's minute (1 for everything else) */
  count: integer('count').notNull().default(1),
  /** a refused attempt's address × action × minute (migration 25); null for everything else */
  bucket: text('bucket'),
});
