import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/driver.js';
import { AppError, NotFoundError } from '../lib/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';

export const SESSION_DAYS = 30;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface User {
  id: number;
  username: string;
}

export async function getUserByName(db: Db, username: string) {
  const [row] = await db.query<{ id: number; username: string; password_hash: string }>(
    'select id, username, password_hash from app_user where lower(username) = lower($1)',
    [username],
  );
  return row ?? null;
}

export async function addUser(db: Db, username: string, password: string): Promise<User> {
  if (await getUserByName(db, username))
    throw new AppError(`пользователь ${username} уже существует`, 'CONFLICT', 409);
  const [row] = await db.query<User>(
    'insert into app_user (username, password_hash) values ($1, $2) returning id, username',
    [username, await hashPassword(password)],
  );
  return row;
}

/** Sets a new password and closes every session of the user but `keepToken` (the one changing it). */
export async function setPassword(
  db: Db,
  username: string,
  password: string,
  keepToken?: string,
): Promise<void> {
  const user = await getUserByName(db, username);
  if (!user) throw new NotFoundError(`пользователь ${username} не найден`);
  await db.query('update app_user set password_hash = $2 where id = $1', [
    user.id,
    await hashPassword(password),
  ]);
  await db.query('delete from session where user_id = $1 and token_hash <> $2', [
    user.id,
    keepToken ? hashToken(keepToken) : '',
  ]);
}

export async function listUsers(db: Db) {
  return db.query<{ id: number; username: string; created_at: string; sessions: number }>(
    `select u.id, u.username, u.created_at,
       (select count(*)::int from session s where s.user_id = u.id and s.expires_at > now()) as sessions
     from app_user u order by lower(u.username)`,
  );
}

export async function removeUser(db: Db, username: string): Promise<void> {
  const user = await getUserByName(db, username);
  if (!user) throw new NotFoundError(`пользователь ${username} не найден`);
  // the watched items go with the user (a cascade); their alerts, which keep no foreign key, here
  await db.transaction(async (tx) => {
    await tx.query('delete from watch_alert where user_id = $1', [user.id]);
    await tx.query('delete from app_user where id = $1', [user.id]);
  });
}

/** Checks the password; returns the user or null, spending the same time for an unknown name. */
export async function checkCredentials(db: Db, username: string, password: string): Promise<User | null> {
  const user = await getUserByName(db, username);
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  return user && ok ? { id: user.id, username: user.username } : null;
}
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Opens a session: 32 random bytes, stored only as their SHA-256. */
export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into session (token_hash, user_id, expires_at) values ($1, $2, now() + interval '${SESSION_DAYS} days')`,
    [hashToken(token), userId],
  );
  return token;
}

/** The session's user, sliding its expiry forward; null when unknown or expired. */
export async function userForToken(db: Db, token: string): Promise<User | null> {
  const [row] = await db.query<User & { stale: boolean }>(
    `select u.id, u.username, s.last_used_at < now() - interval '1 minute' as stale
     from session s join app_user u on u.id = s.user_id
     where s.token_hash = $1 and s.expires_at > now()`,
    [hashToken(token)],
  );
  if (!row) return null;
  if (row.stale) {
    await db.query(
      `update session set last_used_at = now(), expires_at = now() + interval '${SESSION_DAYS} days' where token_hash = $1`,
      [hashToken(token)],
    );
  }
  return { id: row.id, username: row.username };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.query('delete from session where token_hash = $1', [hashToken(token)]);
}
