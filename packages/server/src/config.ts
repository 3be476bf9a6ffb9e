import { z } from 'zod';

const configSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  host: z.string().default('127.0.0.1'),
  dataDir: z.string().default('./data'),
  databaseUrl: z.string().optional(),
  /** DATABASE_READ_URL: PostgreSQL streaming replicas (comma-separated) for reads that tolerate lag (§11.2) */
  databaseReadUrl: z
    .string()
    .refine(
      (v) => v.split(',').every((u) => !u.trim() || /^postgres(ql)?:\/\//.test(u.trim())),
      'ожидаются адреса postgresql://… через запятую',
    )
    .optional(),
  /** a replica more than this many seconds behind the primary is skipped until it catches up */
  maxReplicaLagS: z.coerce.number().min(0).max(86_400).default(30),
  /** a replica that takes longer than this to connect or answer is taken as down */
  replicaTimeoutS: z.coerce.number().min(0.1).max(600).default(10),
  /** CACHE_MB: the in-memory cache in front of the kept data, all readers and responses together */
  cacheMb: z.coerce.number().int().min(8).max(1_048_576).default(256),
  removalGrace: z.coerce.number().int().min(1).max(30).default(2),
  /** the carry-forward limit C in days (DESIGN §10.1); changing it needs `cena-metra rebuild` */
  maxCarryDays: z.coerce.number().int().min(1).max(3650).default(31),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** LOG_FORMAT: lines for a person (`pretty`) or JSON; unset: pretty on a terminal, JSON otherwise */
  logFormat: z.enum(['pretty', 'json']).optional(),
  corsOrigins: z.string().optional(),
  publicUrl: z.string().optional(),
  telegramBotToken: z.string().optional(),
  telegramChannelId: z.string().optional(),
  telegramChannelUrl: z.string().optional(),
  telegramApiRoot: z.string().optional(),
  /** TELEGRAM_BOT_USERNAME: the bot's @name, for a t.me link to it on the profile page (optional) */
  telegramBotUsername: z.string().optional(),
  /** where collection problems are reported (DESIGN §10.8) */
  telegramAdminChatId: z.string().optional(),
  /** a summary is posted once no import has changed it for this long */
  telegramSettleSeconds: z.coerce.number().int().min(0).max(86_400).default(300),
  /** an idle or stalled connection is closed after this many seconds without a byte either way */
  httpIdleTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(60),
  /** a request (headers and body) must arrive whole within this many seconds */
  httpRequestTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(120),
  /** the headers of a request must arrive within this many seconds */
  httpHeadersTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(20),
  /** a kept-alive connection waits this long for its next request */
  httpKeepAliveSeconds: z.coerce.number().int().min(1).max(3600).default(5),
  /** how often the publisher looks for a summary to post (besides after each API import) */
  telegramPollSeconds: z.coerce.number().int().min(1).max(86_400).default(60),
  /** when `serve` collects the sources every day (DESIGN §10.8), HH:MM in COLLECT_TZ */
  collectAt: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'ожидается время ЧЧ:ММ')
    .default('06:00'),
  /** the time zone of COLLECT_AT and of the day a collection is for */
  collectTz: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'неизвестный часовой пояс')
    .default('Europe/Moscow'),
  /** MAP_PMTILES: a PMTiles basemap served at /tiles/basemap.pmtiles and drawn under «Рынок»'s map */
  mapPmtiles: z.string().optional(),
  /** MAP_STYLE_URL: an operator's own MapLibre style instead (its origin is allowed to the pages) */
  mapStyleUrl: z
    .string()
    .refine((v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'ожидается адрес http(s)://… стиля MapLibre')
    .optional(),
  /** VIEWERS_EXPORT=false: viewers get no CSV/Excel downloads (DESIGN §11.5) */
  viewersExport: z
    .enum(['true', 'false', '1', '0'], { message: 'ожидается true или false' })
    .transform((v) => v === 'true' || v === '1')
    .or(z.boolean())
    .default(true),
});
export type Config = z.infer<typeof configSchema>;

/** Reads and validates configuration once; nothing else reads process.env. */
export function loadConfig(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const fromEnv = {
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    maxReplicaLagS: env.MAX_REPLICA_LAG_S,
    replicaTimeoutS: env.REPLICA_TIMEOUT_S,
    removalGrace: env.REMOVAL_GRACE,
    cacheMb: env.CACHE_MB,
    maxCarryDays: env.MAX_CARRY_DAYS,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    corsOrigins: env.CORS_ORIGINS,
    publicUrl: env.PUBLIC_URL,
    telegramBotToken: env.TELEGRAM_BOT_TOKEN || undefined,
    telegramChannelId: env.TELEGRAM_CHANNEL_ID,
    telegramChannelUrl: env.TELEGRAM_CHANNEL_URL,
    telegramApiRoot: env.TELEGRAM_API_ROOT,
    telegramBotUsername: env.TELEGRAM_BOT_USERNAME?.replace(/^@/, '') || undefined,
    telegramAdminChatId: env.TELEGRAM_ADMIN_CHAT_ID || undefined,
    telegramSettleSeconds: env.TELEGRAM_SETTLE_SECONDS,
    telegramPollSeconds: env.TELEGRAM_POLL_SECONDS,
    httpIdleTimeoutSeconds: env.HTTP_IDLE_TIMEOUT_SECONDS,
    httpRequestTimeoutSeconds: env.HTTP_REQUEST_TIMEOUT_SECONDS,
    httpHeadersTimeoutSeconds: env.HTTP_HEADERS_TIMEOUT_SECONDS,
    httpKeepAliveSeconds: env.HTTP_KEEP_ALIVE_SECONDS,
    collectAt: env.COLLECT_AT,
    collectTz: env.COLLECT_TZ,
    viewersExport: env.VIEWERS_EXPORT,
    mapPmtiles: env.MAP_PMTILES,
    mapStyleUrl: env.MAP_STYLE_URL,
  };
  const merged = Object.fromEntries(
    Object.entries({ ...fromEnv, ...overrides }).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // named as the user sets it: maxCarryDays → MAX_CARRY_DAYS
    const name = String(issue.path[0])
      .replace(/[A-Z]/g, (c) => `_${c}`)
      .toUpperCase();
    throw new Error(`настройка ${name}: ${issue.message}`);
  }
  if (parsed.data.databaseReadUrl && !parsed.data.databaseUrl)
    throw new Error(
      'настройка DATABASE_READ_URL: реплики читаются только вместе с DATABASE_URL (PostgreSQL)',
    );
  return parsed.data;
}

/** The replicas of DATABASE_READ_URL, one URL each. */
export function replicaUrls(config: Pick<Config, 'databaseReadUrl'>): string[] {
  return (config.databaseReadUrl ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

/** Test database for the PostgreSQL half of the suite. */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_DATABASE_URL || undefined;
}
