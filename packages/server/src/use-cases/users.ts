import { randomBytes } from 'node:crypto';
import {
  type DeviceSession,
  INVITE_HOURS,
  type Role,
  type TeamUser,
  type UserCreated,
  type UserPatch,
} from '@cena-metra/contract';
import { type Actor, audit } from '../db/queries/audit.js';
import { addUser, getUserById, getUserByName, hashToken, setPassword } from '../db/queries/users.js';
import type { Db } from '../db/driver.js';
import { AppError, NotFoundError } from '../lib/errors.js';

// Users as admins manage them (DESIGN §11.5): made with a password or a one-time link, their role changed,
// disabled (their sessions end), their sessions ended; never without an admin. Every change is audited
// in the same transaction.

const LAST_ADMIN = 'нельзя: это последний администратор, сначала назначьте другого';

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

/** What the log keeps of a user: never a password or a token. */
const snapshotOf = (u: { role: Role; disabled: boolean }) => ({ role: u.role, disabled: u.disabled });

/** A new user with a password, or with a one-time link valid INVITE_HOURS (its token shown once). */
export async function createUser(
  db: Db,
  actor: Actor,
  input: { username: string; role: Role; password?: string },
): Promise<UserCreated> {
  return db.transaction(async (tx) => {
    const user = await addUser(tx, input.username, input.password ?? null, input.role);
    const invite = input.password === undefined ? await newInvite(tx, user.id) : null;
    await audit(tx, actor, 'user.create', user.username, null, {
      role: user.role,
      disabled: false,
      by: invite ? 'ссылка' : 'пароль',
    });
    return { user: await teamUserById(tx, user.id), invite };
  });
}

/** A one-time link for a user (any earlier one of theirs stops working); its token is shown once. */
async function newInvite(tx: Db, userId: number): Promise<NonNullable<UserCreated['invite']>> {
  await tx.query('delete from user_invite where user_id = $1', [userId]);
  const token = randomBytes(24).toString('base64url');
  const [row] = await tx.query<{ expires_at: string | Date }>(
    `insert into user_invite (token_hash, user_id, expires_at)
     values ($1, $2, now() + interval '${INVITE_HOURS} hours') returning expires_at`,
    [hashToken(token), userId],
  );
  return { token, expiresAt: iso(row.expires_at) };
}

/**
 * A new one-time link for a user (theirs expired or was lost): the password they set with it replaces any
 * they had, and their sessions end when they use it. Audited.
 */
export async function reissueInvite(db: Db, actor: Actor, id: number): Promise<UserCreated> {
  return db.transaction(async (tx) => {
    const user = await getUserById(tx, id);
    if (!user) throw new NotFoundError(`пользователь ${id} не найден`);
    if (user.disabled) throw new AppError('пользователь отключён: сначала включите его', 'CONFLICT', 409);
    const invite = await newInvite(tx, id);
    await audit(tx, actor, 'user.invite', user.username, null, { expiresAt: invite.expiresAt });
    return { user: await teamUserById(tx, id), invite };
  });
}

/** Refuses a change that would leave no enabled admin (locks the admins' rows while it decides). */
async function keepAnAdmin(tx: Db, userId: number): Promise<void> {
  const admins = await tx.query<{ id: number }>(
    `select id from app_user where role = 'admin' and disabled_at is null order by id for update`,
  );
  if (admins.length === 1 && admins[0].id === userId) throw new AppError(LAST_ADMIN, 'CONFLICT', 409);
}

/** Changes a user's role and/or switches them off or on; a disabled user's sessions end at once. */
export async function changeUser(db: Db, actor: Actor, id: number, patch: UserPatch): Promise<TeamUser> {
  return db.transaction(async (tx) => {
    const user = await getUserById(tx, id);
    if (!user) throw new NotFoundError(`пользователь ${id} не найден`);
    const before = snapshotOf(user);
    const role = patch.role ?? user.role;
    const disabled = patch.disabled ?? user.disabled;
    if (user.role === 'admin' && !user.disabled && (role !== 'admin' || disabled)) await keepAnAdmin(tx, id);
    if (role !== user.role) {
      await tx.query('update app_user set role = $2 where id = $1', [id, role]);
      await audit(tx, actor, 'user.role', user.username, before, { ...before, role });
    }
    if (disabled !== user.disabled) {
      await tx.query(`update app_user set disabled_at = ${disabled ? 'now()' : 'null'} where id = $1`, [id]);
      if (disabled) await tx.query('delete from session where user_id = $1', [id]);
      await audit(
        tx,
        actor,
        disabled ? 'user.disable' : 'user.enable',
        user.username,
        { ...before, role },
        {
          role,
          disabled,
        },
      );
    }
    return teamUserById(tx, id);
  });
}

/** Ends every session of a user (they sign in again); the count ended. */
export async function endUserSessions(db: Db, actor: Actor, id: number): Promise<number> {
  return db.transaction(async (tx) => {
    const user = await getUserById(tx, id);
    if (!user) throw new NotFoundError(`пользователь ${id} не найден`);
    const ended = await tx.query<{ id: number }>('delete from session where user_id = $1 returning id', [id]);
    await audit(tx, actor, 'user.sessions_end', user.username, { sessions: ended.length }, { sessions: 0 });
    return ended.length;
  });
}

/** Removes a user (the CLI), never the last admin. */
export async function removeUser(db: Db, actor: Actor, username: string): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await getUserByName(tx, username);
    if (!user) throw new NotFoundError(`пользователь ${username} не найден`);
    if (user.role === 'admin' && !user.disabled) await keepAnAdmin(tx, user.id);
    // the watched items go with the user (a cascade); their alerts, which keep no foreign key, here
    await tx.query('delete from watch_alert where user_id = $1', [user.id]);
    await tx.query('delete from app_user where id = $1', [user.id]);
    await audit(tx, actor, 'user.remove', user.username, snapshotOf(user), null);
  });
}

/** Sets a password (the CLI's `user passwd`), audited; sessions but `keepToken` end. */
export async function changePassword(
  db: Db,
  actor: Actor,
  username: string,
  password: string,
  keepToken?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await setPassword(tx, username, password, keepToken);
    await audit(tx, actor, 'user.password', user.username);
  });
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

/** Uses a one-time link: sets the password and spends the link (once: a second use finds nothing). */
export async function acceptInvite(
  db: Db,
  token: string,
  password: string,
  address: string | null,
): Promise<{ id: number; username: string; role: Role } | null> {
  return db.transaction(async (tx) => {
    const spent = await tx.query<{ user_id: number }>(
      'delete from user_invite where token_hash = $1 and expires_at > now() returning user_id',
      [hashToken(token)],
    );
    const user = spent.length ? await getUserById(tx, spent[0].user_id) : null;
    if (!user || user.disabled) return null;
    await setPassword(tx, user.username, password);
    await audit(tx, { id: user.id, name: user.username, address }, 'user.invite_accept', user.username);
    return { id: user.id, username: user.username, role: user.role };
  });
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
