import { date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, project } from './schema.js';

// The state registry's tables (DESIGN §12.3, migration 29).

export const registryObject = pgTable(
  'registry_object',
  {
    objId: integer('obj_id').primaryKey(),
    firstDay: date('first_day').notNull(),
    lastDay: date('last_day').notNull(),
    state: jsonb('state').notNull(),
    projectId: integer('project_id').references(() => project.id, { onDelete: 'set null' }),
    building: text('building'),
    match: text('match').notNull().default('none'),
    /** §11.1: the effective facts now (derive/registry.ts), migration 31 */
    facts: jsonb('facts'),
    /** §11.1: the light history as bytes (db/kept-history.ts), migration 38 */
    history: bytea('history'),
  },
  (t) => [index('registry_object_project').on(t.projectId)],
);

export const registryState = pgTable(
  'registry_state',
  {
    objId: integer('obj_id')
      .notNull()
      .references(() => registryObject.objId, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    state: jsonb('state').notNull(),
  },
  (t) => [primaryKey({ columns: [t.objId, t.day] })],
);

export const registryRaw = pgTable(
  'registry_raw',
  {
    objId: integer('obj_id').notNull(),
    kind: text('kind').notNull(),
    day: date('day').notNull(),
    hash: text('hash').notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.objId, t.kind, t.day] })],
);

export const registrySeen = pgTable(
  'registry_seen',
  {
    objId: integer('obj_id').notNull(),
    kind: text('kind').notNull(),
    days: integer('days').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.objId, t.kind] })],
);

export const registryDay = pgTable('registry_day', {
  day: date('day').primaryKey(),
  objects: integer('objects').notNull(),
  refused: jsonb('refused').notNull().default([]),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

export const registryLink = pgTable('registry_link', {
  objId: integer('obj_id').primaryKey(),
  projectId: integer('project_id').references(() => project.id, { onDelete: 'cascade' }),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
