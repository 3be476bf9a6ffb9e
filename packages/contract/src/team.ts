import { z } from 'zod';
import { intInRange } from './api.js';
import { dataDateProblem } from './dates.js';
import { safeText, secretText } from './text.js';

// A team (DESIGN §11.5): roles, users managed by admins, sessions, the audit log.

export const ROLES = ['admin', 'analyst', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Администратор',
  analyst: 'Аналитик',
  viewer: 'Наблюдатель',
};
/**
 * Whether a role is at least `need` (admin > analyst > viewer): the one rule the server's guard
 * (auth/access.ts) and the web's hiding of menus and buttons both read.
 */
export function roleAtLeast(role: Role | undefined, need: Role): boolean {
  return role !== undefined && ROLES.indexOf(role) <= ROLES.indexOf(need);
}
export const roleSchema = z.enum(ROLES, { message: `role: одна из ролей ${ROLES.join(', ')}` });

/** 1–100 letters, digits, `_ . -` (the CLI says it the same way). */
export const USERNAME_RULE = '1–100 символов: буквы, цифры, _ . -';
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.-]{1,100}$/u;
export const usernameSchema = safeText('username', 100).pipe(
  z.string().regex(USERNAME_PATTERN, `username: ${USERNAME_RULE}`),
);
export const newPasswordSchema = (name: string) =>
  secretText(name, 200).pipe(z.string().min(8, `${name}: не короче 8 символов`));

/** Who is signed in: the role decides what the web shows; `canExport` whether CSV/Excel are offered. */
export const meSchema = z.object({ username: z.string(), role: roleSchema, canExport: z.boolean() });
export type Me = z.infer<typeof meSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  role: roleSchema,
  disabled: z.boolean(),
  createdAt: z.string(),
  /** open sessions */
  sessions: z.number().int(),
  lastSeenAt: z.string().nullable(),
  /** a one-time link not yet used: the user has no password yet */
  invitePending: z.boolean(),
  /** false until the user sets a password through a one-time link */
  hasPassword: z.boolean(),
});
export type TeamUser = z.infer<typeof userSchema>;
export const usersResponseSchema = z.array(userSchema);

/** A new user: with a password, or (none given) a one-time link valid 24 h. */
export const userCreateSchema = z.object({
  username: usernameSchema,
  role: roleSchema,
  password: newPasswordSchema('password').optional(),
});
export type UserCreate = z.infer<typeof userCreateSchema>;
export const inviteSchema = z.object({ token: z.string(), expiresAt: z.string() });
export const userCreatedSchema = z.object({ user: userSchema, invite: inviteSchema.nullable() });
export type UserCreated = z.infer<typeof userCreatedSchema>;
export const INVITE_HOURS = 24;
/** The page a one-time link opens. */
export const invitePath = (token: string) => `/invite/${token}`;

export const userPatchSchema = z
  .object({
    role: roleSchema.optional(),
    disabled: z.boolean({ message: 'disabled: true или false' }).optional(),
  })
  .refine((p) => p.role !== undefined || p.disabled !== undefined, 'укажите role или disabled');
export type UserPatch = z.infer<typeof userPatchSchema>;
export const userParamsSchema = z.object({
  id: intInRange('id', 1, 2147483647, 'должно быть целым положительным числом'),
});

export const inviteParamsSchema = z.object({
  token: safeText('token', 100).pipe(z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token: неверная ссылка')),
});
export const inviteInfoSchema = z.object({ username: z.string(), expiresAt: z.string() });
export const inviteAcceptSchema = z.object({ password: newPasswordSchema('password') });

export const deviceSessionSchema = z.object({
  id: z.number().int(),
  device: z.string(),
  address: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** the session of this request */
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;
export const deviceSessionsSchema = z.array(deviceSessionSchema);
export const sessionParamsSchema = z.object({
  id: intInRange('id', 1, Number.MAX_SAFE_INTEGER, 'должно быть целым положительным числом'),
});

// --- the audit log ---

export const AUDIT_ACTIONS = {
  'user.create': 'Пользователь создан',
  'user.role': 'Роль изменена',
  'user.disable': 'Пользователь отключён',
  'user.enable': 'Пользователь включён',
  'user.sessions_end': 'Сеансы завершены',
  'user.password': 'Пароль изменён',
  'user.invite': 'Новая ссылка для входа',
  'user.invite_accept': 'Приглашение принято',
  'user.remove': 'Пользователь удалён',
  'source.create': 'Источник добавлен',
  'source.update': 'Источник изменён',
  'source.delete': 'Источник удалён',
  'collect.run': 'Сбор источника',
  'collect.scheduled': 'Сбор по расписанию',
  import: 'Загрузка снимков',
  'place.update': 'Место проекта изменено',
  'project.class': 'Класс проекта изменён',
  'registry.import': 'Загрузка реестра',
  'registry.link': 'Объект реестра привязан',
  'registry.unlink': 'Объект реестра отвязан',
  // refused attempts (DESIGN §12.1): a row per address, action and minute, with how many times
  'auth.login_failed': 'Неудачный вход',
  'access.denied': 'Отказано в доступе',
  'access.throttled': 'Слишком много попыток',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const auditActionSchema = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]], {
  message: 'action: неизвестное действие',
});

/** A day of the log's filter: a real date from MIN_DATA_DATE to tomorrow. */
const auditDay = (name: string) =>
  safeText(name, 10).pipe(
    z.string().refine((v) => dataDateProblem(v) === null, { message: `${name}: дата ГГГГ-ММ-ДД` }),
  );
export const auditQuerySchema = z.object({
  from: auditDay('from').optional(),
  to: auditDay('to').optional(),
  /** who did it (a user's name, «расписание», «cli»), exact, case-insensitive */
  actor: safeText('actor', 100).optional(),
  action: auditActionSchema.optional(),
  offset: intInRange('offset', 0, 10_000_000).default(0),
  limit: intInRange('limit', 1, 500).default(100),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  address: z.string().nullable(),
  action: auditActionSchema,
  target: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /** how many times within the row's minute (refused attempts); 1 for everything else */
  count: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({ total: z.number().int(), rows: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;
