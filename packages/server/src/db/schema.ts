import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** Raw bytes (a gzipped response). */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

// The tables of migrations.ts as a Drizzle schema: the typed description of the database. Queries are
// SQL written by hand (docs/decisions.md); test/schema.test.ts checks this file against a migrated
// database on PGlite and PostgreSQL, so the two cannot drift apart. The kept derived data: schema-kept.ts.

export const developer = pgTable('developer', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const project = pgTable('project', {
  id: serial('id').primaryKey(),
  developerId: integer('developer_id')
    .notNull()
    .references(() => developer.id),
  name: text('name').notNull(),
  city: text('city'),
  region: text('region'),
  district: text('district'),
  address: text('address'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  stations: jsonb('stations').notNull().default([]),
  placeSource: jsonb('place_source').notNull().default({}),
  placeEdit: jsonb('place_edit').notNull().default({}),
  placeVersion: integer('place_version').notNull().default(0),
  /** §12.3: a class set by hand (wins), the registry's (kept by its import), counted changes of either */
  handClass: text('hand_class'),
  registryClass: text('registry_class'),
  classVersion: integer('class_version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  dataVersion: integer('data_version').notNull().default(0),
  firstSnapshotDate: date('first_snapshot_date'),
  lastSnapshotDate: date('last_snapshot_date'),
});

export const snapshot = pgTable('snapshot', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => project.id),
  date: date('date').notNull(),
  flatsCount: integer('flats_count').notNull(),
  contentHash: text('content_hash').notNull(),
  source: text('source'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  /** §10.4: far fewer flats than the snapshots before it; absent flats keep their previous record */
  partial: boolean('partial').notNull().default(false),
  /** imported as whole (`--complete`, `complete: true`): never partial */
  complete: boolean('complete').notNull().default(false),
});

export const flat = pgTable('flat', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => project.id),
  externalId: text('external_id').notNull(),
  /** kept: the day the flat was first listed (§10.5) */
  firstSeen: date('first_seen'),
});

/** A flat's listed record (nullable in the log, where `present = false` rows carry none). */
const record = (required: boolean) => ({
  building: required ? text('building').notNull() : text('building'),
  section: text('section'),
  floor: integer('floor'),
  number: text('number'),
  rooms: required ? integer('rooms').notNull() : integer('rooms'),
  area: required ? doublePrecision('area').notNull() : doublePrecision('area'),
  facing: required ? text('facing').notNull() : text('facing'),
  settlementDate: date('settlement_date'),
  price: required ? bigint('price', { mode: 'number' }).notNull() : bigint('price', { mode: 'number' }),
  basePrice: bigint('base_price', { mode: 'number' }),
  status: text('status'),
  /** the developer's offer beside the price (§11.4), canonical JSON text */
  offer: text('offer'),
});

export const flatObservation = pgTable(
  'flat_observation',
  {
    projectId: integer('project_id').notNull(),
    flatId: integer('flat_id').notNull(),
    snapshotDate: date('snapshot_date').notNull(),
    present: boolean('present').notNull(),
    ...record(false),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.flatId, t.snapshotDate] })],
);

export const flatSegment = pgTable(
  'flat_segment',
  {
    projectId: integer('project_id').notNull(),
    flatId: integer('flat_id').notNull(),
    startDay: date('start_day').notNull(),
    endDay: date('end_day'),
    ...record(true),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.flatId, t.startDay] })],
);

export const flatEvent = pgTable(
  'flat_event',
  {
    projectId: integer('project_id').notNull(),
    day: date('day').notNull(),
    flatId: integer('flat_id').notNull(),
    kind: text('kind').notNull(),
    building: text('building').notNull(),
    section: text('section'),
    floor: integer('floor'),
    number: text('number'),
    rooms: integer('rooms').notNull(),
    area: doublePrecision('area').notNull(),
    facing: text('facing').notNull(),
    settlementDate: date('settlement_date'),
    oldPrice: bigint('old_price', { mode: 'number' }),
    newPrice: bigint('new_price', { mode: 'number' }),
    changePercent: doublePrecision('change_percent'),
    /** AREA_CHANGED: the area before */
    oldArea: doublePrecision('old_area'),
    status: text('status'),
    offer: text('offer'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.flatId, t.kind] })],
);

export const dailySummary = pgTable('daily_summary', {
  id: serial('id').primaryKey(),
  date: date('date').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const summaryProject = pgTable(
  'summary_project',
  {
    date: date('date').notNull(),
    projectId: integer('project_id').notNull(),
    isNewProject: boolean('is_new_project').notNull(),
    flatsCount: integer('flats_count').notNull(),
    newFlats: integer('new_flats').notNull(),
    removedFlats: integer('removed_flats').notNull(),
    priceUp: integer('price_up').notNull(),
    priceDown: integer('price_down').notNull(),
    avgChangePercent: doublePrecision('avg_change_percent'),
    avgMeterPrice: doublePrecision('avg_meter_price'),
    areaChanged: integer('area_changed').notNull().default(0),
    promoStarted: integer('promo_started').notNull().default(0),
    promoEnded: integer('promo_ended').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.date, t.projectId] })],
);

export const appUser = pgTable('app_user', {
  id: serial('id').primaryKey(),
  username: text('username').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** the Telegram chat linked by /start <code> (issue 17) */
  telegramChatId: bigint('telegram_chat_id', { mode: 'number' }),
  /** admin, analyst or viewer (§11.5) */
  role: text('role').notNull().default('analyst'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

export const session = pgTable('session', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => appUser.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  /** the id a user ends a session by (the token's hash is never shown) */
  id: bigserial('id', { mode: 'number' }).notNull(),
  userAgent: text('user_agent'),
  address: text('address'),
});

export const telegramSubscription = pgTable(
  'telegram_subscription',
  {
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** 0 = every project. */
    projectId: integer('project_id').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.projectId] })],
);

export const telegramPost = pgTable('telegram_post', {
  summaryId: integer('summary_id')
    .primaryKey()
    .references(() => dailySummary.id, { onDelete: 'cascade' }),
  plannedAt: timestamp('planned_at', { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp('done_at', { withTimezone: true }),
});

export const telegramDelivery = pgTable(
  'telegram_delivery',
  {
    summaryId: integer('summary_id')
      .notNull()
      .references(() => telegramPost.summaryId, { onDelete: 'cascade' }),
    chatId: text('chat_id').notNull(),
    isChannel: boolean('is_channel').notNull(),
    /** JSON array of the message's parts (each ≤ 4,096 characters). */
    parts: text('parts').notNull(),
    sentParts: integer('sent_parts').notNull().default(0),
    /** pending | sent | blocked | failed */
    status: text('status').notNull().default('pending'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.summaryId, t.chatId] })],
);

export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const jobRun = pgTable('job_run', {
  id: serial('id').primaryKey(),
  job: text('job').notNull(),
  period: text('period'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  status: text('status').notNull().default('running'),
  counts: text('counts'),
  error: text('error'),
});

export const source = pgTable('source', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  url: text('url').notNull(),
  /** request headers as a JSON object */
  headers: text('headers').notNull().default('{}'),
  developer: text('developer'),
  project: text('project'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sourceRun = pgTable('source_run', {
  id: serial('id').primaryKey(),
  sourceId: integer('source_id')
    .notNull()
    .references(() => source.id, { onDelete: 'cascade' }),
  date: date('date').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  status: text('status').notNull().default('running'),
  httpStatus: integer('http_status'),
  pages: integer('pages').notNull().default(0),
  flats: integer('flats').notNull().default(0),
  snapshots: integer('snapshots').notNull().default(0),
  partial: integer('partial').notNull().default(0),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  etag: text('etag'),
  lastModified: text('last_modified'),
  /** the raw response, gzipped (re-read by `cena-metra reparse`) */
  raw: bytea('raw'),
  error: text('error'),
});

// Watchlists (issue 17): watched flats and segments, their alerts, Telegram links and alert messages.
export const watch = pgTable('watch', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => appUser.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  projectId: integer('project_id')
    .notNull()
    .references(() => project.id),
  flatId: integer('flat_id').references(() => flat.id),
  building: text('building'),
  rooms: text('rooms').notNull().default('all'),
  maxPrice: bigint('max_price', { mode: 'number' }),
  finish: text('finish'),
  rules: text('rules').notNull(),
  since: date('since').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const watchAlert = pgTable('watch_alert', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  watchId: integer('watch_id').notNull(),
  userId: integer('user_id').notNull(),
  projectId: integer('project_id').notNull(),
  kind: text('kind').notNull(),
  day: date('day').notNull(),
  flatId: integer('flat_id').notNull(),
  building: text('building').notNull(),
  rooms: integer('rooms').notNull(),
  area: doublePrecision('area').notNull(),
  oldPrice: bigint('old_price', { mode: 'number' }),
  newPrice: bigint('new_price', { mode: 'number' }),
  changePercent: doublePrecision('change_percent'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  readAt: timestamp('read_at', { withTimezone: true }),
  digestDay: date('digest_day'),
});

export const alertCursor = pgTable('alert_cursor', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => project.id),
  dataVersion: integer('data_version').notNull(),
  through: date('through').notNull(),
});

export const telegramLinkCode = pgTable('telegram_link_code', {
  code: text('code').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => appUser.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const alertDigest = pgTable(
  'alert_digest',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => appUser.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    parts: text('parts').notNull(),
    sentParts: integer('sent_parts').notNull().default(0),
    status: text('status').notNull().default('pending'),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
