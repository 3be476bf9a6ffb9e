import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bytea, project } from './schema.js';

// The kept derived data (DESIGN §11.1) as a Drizzle schema, part of schema.ts's TABLES: what each import
// brings up to date beside the observations, besides the timeline's segments and events.

/**
 * Kept (DESIGN §11.1): each snapshot day's stats series per status as the response writes it, a month of
 * days to a row, gzipped, as base64 text (db/kept-series.ts).
 */
export const seriesMonth = pgTable(
  'series_month',
  {
    projectId: integer('project_id').notNull(),
    month: date('month').notNull(),
    days: integer('days').array().notNull(),
    seriesAll: text('series_all').notNull(),
    seriesAvailable: text('series_available').notNull(),
    /** the same months in columns (db/kept-columns.ts, §12.2); null until migration 26's step has run */
    columnsAll: text('columns_all'),
    columnsAvailable: text('columns_available'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.month] })],
);

// Kept: a project's pace summary per filter (DESIGN §10.5–10.6), a year to a row; an import rewrites the
// years from its change on.
export const paceSummary = pgTable(
  'pace_summary',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    status: text('status').notNull(),
    rooms: text('rooms').notNull(),
    /** the first day of the year whose snapshots the row holds (analytics/pace-parts.ts) */
    part: date('part').notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.status, t.rooms, t.part] }),
    // the table is laid out by it (CLUSTER, migration 41): a filter's parts of every project together
    index('pace_summary_by_filter').on(t.status, t.rooms, t.projectId, t.part),
  ],
);

/**
 * Kept: what the market's ranking reads of the pace summaries of every room, a month to a row as flat
 * arrays (db/kept-rank.ts); `reach` is the last day the month's snapshots have data on.
 */
export const rankMonth = pgTable(
  'rank_month',
  {
    projectId: integer('project_id').notNull(),
    status: text('status').notNull(),
    month: date('month').notNull(),
    reach: date('reach').notNull(),
    body: bytea('body').notNull(),
    /** md5 of `body` (hex): what an import and a reader compare to skip a month that did not change */
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.status, t.month] }),
    // a ranking reads the months that reach its period, not every month of the project (migration 39)
    index('rank_month_reach').on(t.projectId, t.status, t.reach),
  ],
);

/** Kept: the chessboard a project first shows (its last day), gzipped JSON (derive/chess.ts). */
export const chessLatest = pgTable('chess_latest', {
  projectId: integer('project_id').primaryKey(),
  body: bytea('body').notNull(),
});

/**
 * Kept: a project's segments active on its latest list's day (migration 37, derive/latest.ts) — one JSON
 * array of arrays (flat, start and end days, the record's columns), what a flat's fair price and its
 * comparables read of each project.
 */
export const activeLatest = pgTable('active_latest', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => project.id),
  day: date('day').notNull(),
  body: text('body').notNull(),
});

// Kept: the project's last snapshot day per status — the summary table and the distribution (JSON).
export const projectLatest = pgTable(
  'project_latest',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    status: text('status').notNull(),
    day: date('day').notNull(),
    summary: text('summary').notNull(),
    distribution: text('distribution').notNull(),
    /** per period and basis, the project's discounts on the day (migration 22; null before its next import) */
    discounts: text('discounts'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.status] })],
);

/** Kept: a snapshot day's avg ppm sums by payment term per status (§11.4), JSON (derive/offer-terms.ts). */
export const offerDay = pgTable(
  'offer_day',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    day: date('day').notNull(),
    body: text('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/** Kept: a union's whole span per scope and filter (migration 27, use-cases/market-spans.ts), gzipped JSON. */
export const marketSpan = pgTable(
  'market_span',
  {
    scope: text('scope').notNull(),
    status: text('status').notNull(),
    rooms: text('rooms').notNull(),
    members: text('members').notNull(),
    body: bytea('body').notNull(),
    /** its members' ids and data versions as Int32 pairs (migration 40); null for a span made before */
    versions: bytea('versions'),
  },
  (t) => [primaryKey({ columns: [t.scope, t.status, t.rooms] })],
);

/**
 * Kept (migration 40): a project's pace summary per filter from about three months before its last day on,
 * the stock's first presences whole at its first snapshot (analytics/pace-tail.ts) — what a kept span is
 * brought up to date from.
 */
export const paceTail = pgTable(
  'pace_tail',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    status: text('status').notNull(),
    rooms: text('rooms').notNull(),
    /** it begins at the project's first snapshot */
    whole: boolean('whole').notNull(),
    body: bytea('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.status, t.rooms] })],
);

/** Kept (migration 40): a change of a project's pace summaries on top of a data version, from its first day. */
export const paceChange = pgTable(
  'pace_change',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    version: integer('version').notNull(),
    fromDay: date('from_day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.version] })],
);

/**
 * Kept (DESIGN §12.4): a project's hedonic sums of a month (analytics/hedonic.ts, SUMS_LENGTH doubles,
 * little-endian): what a segment's window is fitted from.
 */
export const hedonicMonth = pgTable(
  'hedonic_month',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => project.id),
    month: date('month').notNull(),
    body: bytea('body').notNull(),
    /** the write's stamp (migration 35): a month rewritten has a new one; null for a month written before */
    stamp: integer('stamp').default(sql`nextval('hedonic_month_stamp')`),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.month] })],
);

/** Kept (DESIGN §12.4): a segment's hedonic links per rooms group (migration 34, use-cases/hedonic-links.ts). */
export const hedonicLink = pgTable(
  'hedonic_link',
  {
    scope: text('scope').notNull(),
    rooms: text('rooms').notNull(),
    members: text('members').notNull(),
    body: bytea('body').notNull(),
    /** the hashes of the windows its links were fitted from (migration 35, use-cases/hedonic-windows.ts) */
    windows: bytea('windows'),
    /** rooms «all» of the market, a region or a city: its latest window's fit (migration 36, db/kept.ts) */
    fit: bytea('fit'),
  },
  (t) => [primaryKey({ columns: [t.scope, t.rooms] })],
);
