import type { Role, TeamUser, UserCreated, UserPatch } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import { type Actor, audit } from '../db/queries/audit.js';
import {
  deleteUserRow,
  endSessionsOf,
  keepAnAdmin,
  newInvite,
  setUserDisabled,
  setUserRole,
  spendInvite,
  teamUserById,
} from '../db/queries/team.js';
import { addUser, getUserById, getUserByName, setPassword } from '../db/queries/users.js';
import { AppError, NotFoundError } from '../lib/errors.js';

export {
  deviceSessions,
  endDeviceSession,
  inviteOf,
  listUsers,
  teamUserById,
} from '../db/queries/team.js';
export {
  addUser,
  checkCredentials,
  createSession,
  getUserByName,
  hashToken,
  revokeSession,
} from '../db/queries/users.js';

// Users as admins manage them (DESIGN §11.5): made with a password or a one-time link, their role changed,
// disabled (their sessions end), their sessions ended; never without an admin. Every change is audited
// in the same transaction.

const LAST_ADMIN = 'нельзя: это последний администратор, сначала назначьте другого';

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

/** Changes a user's role and/or switches them off or on; a disabled user's sessions end at once. */
export async function changeUser(db: Db, actor: Actor, id: number, patch: UserPatch): Promise<TeamUser> {
  return db.transaction(async (tx) => {
    const user = await getUserById(tx, id);
    if (!user) throw new NotFoundError(`пользователь ${id} не найден`);
    const before = snapshotOf(user);
    const role = patch.role ?? user.role;
    const disabled = patch.disabled ?? user.disabled;
    if (user.role === 'admin' && !user.disabled && (role !== 'admin' || disabled))
      await keepAnAdmin(tx, id, LAST_ADMIN);
    if (role !== user.role) {
      await setUserRole(tx, id, role);
      await audit(tx, actor, 'user.role', user.username, before, { ...before, role });
    }
    if (disabled !== user.disabled) {
      await setUserDisabled(tx, id, disabled);
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
    const ended = await endSessionsOf(tx, id);
    await audit(tx, actor, 'user.sessions_end', user.username, { sessions: ended }, { sessions: 0 });
    return ended;
  });
}

/** Removes a user (the CLI), never the last admin. */
export async function removeUser(db: Db, actor: Actor, username: string): Promise<void> {
  await db.transaction(async (tx) => {
    const user = await getUserByName(tx, username);
    if (!user) throw new NotFoundError(`пользователь ${username} не найден`);
    if (user.role === 'admin' && !user.disabled) await keepAnAdmin(tx, user.id, LAST_ADMIN);
    await deleteUserRow(tx, user.id);
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

/** Uses a one-time link: sets the password and spends the link (once: a second use finds nothing). */
export async function acceptInvite(
  db: Db,
  token: string,
  password: string,
  address: string | null,
): Promise<{ id: number; username: string; role: Role } | null> {
  return db.transaction(async (tx) => {
    const spent = await spendInvite(tx, token);
    const user = spent === null ? null : await getUserById(tx, spent);
    if (!user || user.disabled) return null;
    await setPassword(tx, user.username, password);
    await audit(tx, { id: user.id, name: user.username, address }, 'user.invite_accept', user.username);
    return { id: user.id, username: user.username, role: user.role };
  });
}
