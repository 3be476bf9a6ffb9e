import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@cena-metra/contract';
import { AppError, NotFoundError } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { Db } from '../driver.js';

export const SESSION_DAYS = 30;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface User {
  id: number;
  username: string;
  role: Role;
}

/** What a session remembers of the device that opened it (the profile's sessions list). */
export interface DeviceInfo {
  userAgent?: string | null;
  address?: string | null;
}

interface UserRow {
  id: number;
  username: string;
  role: Role;
  password_hash: string;
  disabled: boolean;
}

export async function getUserByName(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(
    `select id, username, role, password_hash, disabled_at is not null as disabled
     from app_user where lower(username) = lower($1)`,
    [username],
  );
  return row ?? null;
}

export async function getUserById(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(
    `select id, username, role, password_hash, disabled_at is not null as disabled from app_user where id = $1`,
    [id],
  );
  return row ?? null;
}

/**
 * A new user. The first one is the admin whatever `role` says (DESIGN §11.5: someone must manage the
 * others); the rest are analysts unless told. Without a password the user signs in only after setting one
 * through a one-time link (auth/team.ts).
 */
export async function addUser(db: Db, username: string, password: string | null, role?: Role): Promise<User> {
  return db.transaction(async (tx) => {
    if (await getUserByName(tx, username))
      throw new AppError(`username: пользователь ${username} уже существует`, 'CONFLICT', 409);
    const [{ any }] = await tx.query<{ any: boolean }>('select exists (select 1 from app_user) as any');
    const [row] = await tx.query<User>(
      'insert into app_user (username, password_hash, role) values ($1, $2, $3) returning id, username, role',
      [username, password === null ? '' : await hashPassword(password), any ? (role ?? 'analyst') : 'admin'],
    );
    return row;
  });
}

/** Sets a new password and closes every session of the user but `keepToken` (the one changing it). */
export async function setPassword(
  db: Db,
  username: string,
  password: string,
  keepToken?: string,
): Promise<User> {
  const user = await getUserByName(db, username);
  if (!user) throw new NotFoundError(`пользователь ${username} не найден`);
  await db.transaction(async (tx) => {
    await tx.query('update app_user set password_hash = $2 where id = $1', [
      user.id,
      await hashPassword(password),
    ]);
    await tx.query('delete from user_invite where user_id = $1', [user.id]);
    await tx.query('delete from session where user_id = $1 and token_hash <> $2', [
      user.id,
      keepToken ? hashToken(keepToken) : '',
    ]);
  });
  return { id: user.id, username: user.username, role: user.role };
}

/**
 * Checks the password; returns the user (`disabled` when an admin switched the account off) or null,
 * spending the same time for an unknown name.
 */
export async function checkCredentials(
  db: Db,
  username: string,
  password: string,
): Promise<(User & { disabled: boolean }) | null> {
  const user = await getUserByName(db, username);
  const ok = await verifyPassword(password, user?.password_hash || DUMMY_HASH);
  return user?.password_hash && ok
    ? { id: user.id, username: user.username, role: user.role, disabled: user.disabled }
    : null;
}
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Cuts what a client says of itself to what a list can show. */
const clip = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : null);

/** Opens a session: 32 random bytes, stored only as their SHA-256, with the device that asked. */
export async function createSession(db: Db, userId: number, device: DeviceInfo = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into session (token_hash, user_id, expires_at, user_agent, address)
     values ($1, $2, now() + interval '${SESSION_DAYS} days', $3, $4)`,
    [hashToken(token), userId, clip(device.userAgent, 300), clip(device.address, 100)],
  );
  return token;
}

/**
 * The session's user, sliding its expiry forward and noting where it was last seen; null when unknown,
 * expired or the user is disabled.
 */
export async function userForToken(db: Db, token: string, device: DeviceInfo = {}): Promise<User | null> {
  const [row] = await db.query<User & { stale: boolean }>(
    `select u.id, u.username, u.role, s.last_used_at < now() - interval '1 minute' as stale
     from session s join app_user u on u.id = s.user_id
     where s.token_hash = $1 and s.expires_at > now() and u.disabled_at is null`,
    [hashToken(token)],
  );
  if (!row) return null;
  if (row.stale) {
    await db.query(
      `update session set last_used_at = now(), expires_at = now() + interval '${SESSION_DAYS} days',
         address = coalesce($2, address), user_agent = coalesce($3, user_agent)
       where token_hash = $1`,
      [hashToken(token), clip(device.address, 100), clip(device.userAgent, 300)],
    );
  }
  return { id: row.id, username: row.username, role: row.role };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.query('delete from session where token_hash = $1', [hashToken(token)]);
}
