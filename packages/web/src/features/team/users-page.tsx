import {
  invitePath,
  ROLE_LABELS,
  ROLES,
  type Role,
  type TeamUser,
  USERNAME_PATTERN,
  USERNAME_RULE,
  type UserCreated,
} from '@cena-metra/contract';
import { mdiAccountGroup, mdiAccountPlus, mdiContentCopy } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { ColumnTable } from '../../components/column-table';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Card, inputClass, Section, SectionTitle, Select } from '../../components/ui';
import { actionsColumn, type Column } from '../../lib/columns';
import { useSession } from '../../lib/session';
import { dateTime } from '../../lib/team-text';
import { useTitle } from '../../lib/use-title';
import { useUserActions, useUsers } from './api';

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
const failed = (e: unknown) => toast(`Не получилось: ${(e as Error).message}`);

/** A one-time link made just now (for a new user or made again), shown once to pass on. */
interface ShownLink {
  username: string;
  url: string;
  expiresAt: string;
}
const shownLink = (made: UserCreated): ShownLink | null =>
  made.invite && {
    username: made.user.username,
    url: `${window.location.origin}${invitePath(made.invite.token)}`,
    expiresAt: made.invite.expiresAt,
  };

/**
 * «Пользователи» (DESIGN §11.5), for admins: who works here and in what role; new users with a password
 * or a one-time link, and a new link for one whose link expired or was lost; a role changed, a user
 * switched off (their sessions end), sessions ended. The server keeps the last admin: its refusal is shown
 * as it says it.
 */
export function UsersPage() {
  useTitle('Пользователи');
  const users = useUsers();
  const [link, setLink] = useState<ShownLink | null>(null);
  const me = useSession()?.username;
  return (
    <Section>
      <SectionTitle icon={mdiAccountGroup}>Пользователи</SectionTitle>
      <p className="mb-6 max-w-3xl text-gray-600 dark:text-slate-300">
        Администраторы управляют пользователями, источниками и загрузками; аналитики работают с данными и
        ведут избранное; наблюдатели только смотрят. Каждое изменение попадает в журнал.
      </p>
      <DataState loading={users.isLoading} error={users.error} empty={users.data?.length === 0}>
        <div className="mb-6 overflow-x-auto rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={userColumns(me, setLink)}
            rows={users.data ?? []}
            rowKey={(u) => u.id}
            rowAttributes={(u) => ({ 'data-testid': `user-${u.username}` })}
            testId="users-table"
          />
        </div>
      </DataState>
      <NewUserCard onLink={setLink} />
      {link && <InviteBox link={link} />}
    </Section>
  );
}

/** A user's role, changed in place. */
function RoleCell({ user: u }: { user: TeamUser }) {
  const actions = useUserActions();
  const busy = actions.change.isPending;
  return (
    <select
      className={`${inputClass} min-w-40`}
      value={u.role}
      aria-label={`Роль ${u.username}`}
      data-testid={`user-role-${u.username}`}
      disabled={busy}
      onChange={(e) =>
        actions.change.mutate(
          { id: u.id, patch: { role: e.target.value as Role } },
          {
            onSuccess: () => toast(`${u.username}: роль «${ROLE_LABELS[e.target.value as Role]}»`),
            onError: failed,
          },
        )
      }
    >
      {ROLE_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** A user switched off or on, a new one-time link, their sessions ended. */
function UserActionsCell({ user: u, onLink }: { user: TeamUser; onLink: (link: ShownLink | null) => void }) {
  const actions = useUserActions();
  const busy = actions.change.isPending || actions.endSessions.isPending || actions.invite.isPending;
  return (
    <div className="flex justify-end gap-2">
      <Button
        small
        color={u.disabled ? 'info' : 'outline'}
        disabled={busy}
        data-testid={`user-toggle-${u.username}`}
        onClick={() =>
          actions.change.mutate({ id: u.id, patch: { disabled: !u.disabled } }, { onError: failed })
        }
      >
        {u.disabled ? 'Включить' : 'Отключить'}
      </Button>
      {!u.disabled && (
        <Button
          small
          color="white"
          disabled={busy}
          data-testid={`user-invite-${u.username}`}
          onClick={() =>
            actions.invite.mutate(u.id, { onSuccess: (made) => onLink(shownLink(made)), onError: failed })
          }
        >
          Новая ссылка
        </Button>
      )}
      <Button
        small
        color="white"
        disabled={busy || u.sessions === 0}
        data-testid={`user-end-${u.username}`}
        onClick={() =>
          actions.endSessions.mutate(u.id, {
            onSuccess: () => toast(`${u.username}: сеансы завершены`),
            onError: failed,
          })
        }
      >
        Завершить сеансы
      </Button>
    </div>
  );
}

const userState = (u: TeamUser) =>
  u.disabled
    ? 'Отключён'
    : u.invitePending
      ? 'Ждёт входа по ссылке'
      : u.hasPassword
        ? 'Активен'
        : 'Ссылка истекла: нужна новая';

/** The team: who, their role, state, sessions and last visit, and what an admin does to them. */
const userColumns = (
  me: string | undefined,
  onLink: (link: ShownLink | null) => void,
): Column<TeamUser>[] => [
  {
    key: 'username',
    label: 'Пользователь',
    type: 'text',
    value: (u) => u.username,
    cell: (u) => (
      <>
        <b>{u.username}</b>
        {me === u.username && <span className="ml-2 text-gray-500 text-sm">(вы)</span>}
      </>
    ),
  },
  {
    key: 'role',
    label: 'Роль',
    type: 'text',
    value: (u) => ROLE_LABELS[u.role],
    cell: (u) => <RoleCell user={u} />,
  },
  {
    key: 'state',
    label: 'Состояние',
    type: 'text',
    value: userState,
    className: (u) => (u.disabled ? 'text-red-600' : undefined),
  },
  {
    key: 'sessions',
    label: 'Сеансов',
    type: 'integer',
    value: (u) => u.sessions,
    className: () => 'tabular-nums',
  },
  {
    key: 'lastSeen',
    label: 'Последний вход',
    type: 'text',
    value: (u) => (u.lastSeenAt ? dateTime(u.lastSeenAt) : null),
  },
  actionsColumn((u) => <UserActionsCell user={u} onLink={onLink} />),
];

/** A new user: a one-time link (shown once, to pass on) or a password set here. */
function NewUserCard({ onLink }: { onLink: (link: ShownLink | null) => void }) {
  const { create } = useUserActions();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [how, setHow] = useState<'link' | 'password'>('link');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = username.trim();
    if (!USERNAME_PATTERN.test(name)) return setError(`Имя: ${USERNAME_RULE}`);
    if (how === 'password' && password.length < 8) return setError('Пароль: не короче 8 символов');
    setError(null);
    create.mutate(
      { username: name, role, ...(how === 'password' ? { password } : {}) },
      {
        onSuccess: (made) => {
          setUsername('');
          setPassword('');
          onLink(shownLink(made));
          if (!made.invite) toast(`Пользователь ${made.user.username} создан`);
        },
        onError: (err) => setError((err as Error).message),
      },
    );
  };

  return (
    <Card title="Новый пользователь">
      <form
        onSubmit={submit}
        noValidate
        aria-label="Новый пользователь"
        className="grid grid-cols-1 gap-4 md:grid-cols-4"
      >
        <label className="block">
          <span className="mb-1 block font-semibold text-sm">Имя для входа</span>
          <input
            className={inputClass}
            name="username"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <Select
          label="Роль"
          value={role}
          onChange={(v) => setRole(v as Role)}
          options={ROLE_OPTIONS}
          testId="new-user-role"
        />
        <Select
          label="Как войдёт"
          value={how}
          onChange={(v) => setHow(v as 'link' | 'password')}
          options={[
            { value: 'link', label: 'По ссылке (24 часа)' },
            { value: 'password', label: 'С паролем' },
          ]}
          testId="new-user-how"
        />
        {how === 'password' && (
          <label className="block">
            <span className="mb-1 block font-semibold text-sm">Пароль</span>
            <input
              className={inputClass}
              name="password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        )}
        <div className="md:col-span-4">
          {error && (
            <p
              role="alert"
              className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white"
              data-testid="new-user-error"
            >
              {error}
            </p>
          )}
          <Button type="submit" color="info" icon={mdiAccountPlus} disabled={create.isPending}>
            {create.isPending ? 'Создаю…' : 'Создать'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function InviteBox({ link }: { link: ShownLink }) {
  return (
    <div className="mt-6 rounded-lg bg-gray-50 p-4 text-sm dark:bg-slate-800" data-testid="invite-box">
      <p className="mb-2">
        Ссылка для <b>{link.username}</b> — передайте её; она действует до {dateTime(link.expiresAt)} и только
        один раз, больше она не будет показана:
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          className="break-all rounded bg-white px-2 py-1 font-mono dark:bg-slate-900"
          data-testid="invite-link"
        >
          {link.url}
        </code>
        <Button
          small
          icon={mdiContentCopy}
          onClick={() =>
            navigator.clipboard
              ?.writeText(link.url)
              .then(() => toast('Ссылка скопирована'))
              .catch(() => toast('Не удалось скопировать: выделите ссылку вручную'))
          }
        >
          Копировать
        </Button>
      </div>
    </div>
  );
}
