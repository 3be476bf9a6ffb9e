import { randomBytes } from 'node:crypto';
import {
  type DeviceSession,
  INVITE_HOURS,
  type Role,
  type TeamUser,
  type UserCreated,
} from '@cena-metra/contract';
import { AppError, NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';
import { hashToken } from './users.js';

// The team as admins see and change it (DESIGN §11.5): users with their sessions and one-time links.

const USER_COLUMNS = `u.id, u.username, u.role, u.disabled_at is not null as disabled, u.created_at,
  (select count(*)::int from session s where s.user_id = u.id and s.expires_at > now()) as sessions,
  (select max(s.last_used_at) from session s where s.user_id = u.id) as last_seen_at,
  (u.password_hash = '' and exists (select 1 from user_invite i where i.user_id = u.id and i.expires_at > now()))
    as invite_pending,
  u.password_hash = '' as no_password`;

interface UserRow {
  id: number;
  username: string;
  role: Role;
  disabled: boolean;
  created_at: string | Date;
  sessions: number;
  last_seen_at: string | Date | null;
  invite_pending: boolean;
  no_password: boolean;
}
const iso = (t: string | Date) => new Date(t).toISOString();
const teamUser = (r: UserRow): TeamUser => ({
  id: r.id,
  username: r.username,
  role: r.role,
  disabled: r.disabled,
  createdAt: iso(r.created_at),
  sessions: r.sessions,
  lastSeenAt: r.last_seen_at ? iso(r.last_seen_at) : null,
  invitePending: r.invite_pending,
  hasPassword: !r.no_password,
});

export async function listUsers(db: Db): Promise<TeamUser[]> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from app_user u order by lower(u.username)`);
  return rows.map(teamUser);
}

export async function teamUserById(db: Db, id: number): Promise<TeamUser> {
  const [row] = await db.query<UserRow>(`select ${USER_COLUMNS} from app_user u where u.id = $1`, [id]);
  if (!row) throw new NotFoundError(`пользователь ${id} не найден`);
  return teamUser(row);
}

/** A one-time link for a user (any earlier one of theirs stops working); its token is shown once. */
export async function newInvite(tx: Db, userId: number): Promise<NonNullable<UserCreated['invite']>> {
  await tx.query('delete from user_invite where user_id = $1', [userId]);
  const token = randomBytes(24).toString('base64url');
  const [row] = await tx.query<{ expires_at: string | Date }>(
    `insert into user_invite (token_hash, user_id, expires_at)
     values ($1, $2, now() + interval '${INVITE_HOURS} hours') returning expires_at`,
    [hashToken(token), userId],
  );
  return { token, expiresAt: iso(row.expires_at) };
}

/** Refuses a change that would leave no enabled admin (locks the admins' rows while it decides). */
export async function keepAnAdmin(tx: Db, userId: number, refusal: string): Promise<void> {
  const admins = await tx.query<{ id: number }>(
    `select id from app_user where role = 'admin' and disabled_at is null order by id for update`,
  );
  if (admins.length === 1 && admins[0].id === userId) throw new AppError(refusal, 'CONFLICT', 409);
}

export async function setUserRole(tx: Db, id: number, role: Role): Promise<void> {
  await tx.query('update app_user set role = $2 where id = $1', [id, role]);
}

/** Switches a user off (their sessions end at once) or on. */
export async function setUserDisabled(tx: Db, id: number, disabled: boolean): Promise<void> {
  await tx.query(`update app_user set disabled_at = ${disabled ? 'now()' : 'null'} where id = $1`, [id]);
  if (disabled) await tx.query('delete from session where user_id = $1', [id]);
}

/** Ends every session of a user; the count ended. */
export async function endSessionsOf(tx: Db, id: number): Promise<number> {
  return (await tx.query('delete from session where user_id = $1 returning id', [id])).length;
}

/** Removes a user: the watched items go by cascade, their alerts (no foreign key) here. */
export async function deleteUserRow(tx: Db, id: number): Promise<void> {
  await tx.query('delete from watch_alert where user_id = $1', [id]);
  await tx.query('delete from app_user where id = $1', [id]);
}

/** The user a one-time link is for, while it is valid; null otherwise. */
export async function inviteOf(
  db: Db,
  token: string,
): Promise<{ userId: number; username: string; expiresAt: string } | null> {
  const [row] = await db.query<{ user_id: number; username: string; expires_at: string | Date }>(
    `select i.user_id, u.username, i.expires_at from user_invite i join app_user u on u.id = i.user_id
     where i.token_hash = $1 and i.expires_at > now() and u.disabled_at is null`,
    [hashToken(token)],
  );
  return row ? { userId: row.user_id, username: row.username, expiresAt: iso(row.expires_at) } : null;
}

/** Spends a valid one-time link (once: a second use finds nothing); the user it was for, or null. */
export async function spendInvite(tx: Db, token: string): Promise<number | null> {
  const [spent] = await tx.query<{ user_id: number }>(
    'delete from user_invite where token_hash = $1 and expires_at > now() returning user_id',
    [hashToken(token)],
  );
  return spent?.user_id ?? null;
}

/** A user's open sessions, the most recently seen first. */
export async function deviceSessions(db: Db, userId: number, currentHash: string): Promise<DeviceSession[]> {
  const rows = await db.query<{
    id: string | number;
    token_hash: string;
    user_agent: string | null;
    address: string | null;
    created_at: string | Date;
    last_used_at: string | Date;
  }>(
    `select id, token_hash, user_agent, address, created_at, last_used_at from session
     where user_id = $1 and expires_at > now() order by last_used_at desc, id desc`,
    [userId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    device: r.user_agent || 'неизвестное устройство',
    address: r.address,
    createdAt: iso(r.created_at),
    lastSeenAt: iso(r.last_used_at),
    current: r.token_hash === currentHash,
  }));
}

/** Ends one of the user's own sessions; false when it is not theirs or already gone. */
export async function endDeviceSession(db: Db, userId: number, sessionId: number): Promise<boolean> {
  const gone = await db.query('delete from session where id = $1 and user_id = $2 returning id', [
    sessionId,
    userId,
  ]);
  return gone.length > 0;
}
