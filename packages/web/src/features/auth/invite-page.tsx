import { mdiAsterisk } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { GuestFrame } from '../../components/guest-frame';
import { Icon } from '../../components/icon';
import { Button, inputClass } from '../../components/ui';
import { signIn } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { acceptInvite, useInvite } from './api';

/**
 * The page of a one-time link an admin made (DESIGN §11.5): whose account it is, a password twice, then
 * the user is signed in (GuestOnly sends them on to the start page).
 */
export function InvitePage() {
  useTitle('Приглашение');
  const { token = '' } = useParams();
  const invite = useInvite(token);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password.length < 8) return setError('Пароль: не короче 8 символов');
    if (password !== repeat) return setError('Пароли не совпадают');
    setSending(true);
    setError(null);
    try {
      signIn(await acceptInvite(token, password));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <GuestFrame>
      <div className="w-full max-w-md rounded-2xl bg-white p-6 dark:bg-slate-900" data-testid="invite-page">
        <h1 className="mb-4 font-bold text-2xl">Приглашение в Цену метра</h1>
        {invite.isLoading && <p aria-busy="true">Проверяю ссылку…</p>}
        {invite.error && (
          <>
            <p
              role="alert"
              className="mb-6 rounded-lg bg-red-600 px-4 py-3 text-white"
              data-testid="invite-error"
            >
              {(invite.error as Error).message}
            </p>
            <Link to="/login">
              <Button color="info">Ко входу</Button>
            </Link>
          </>
        )}
        {invite.data && (
          <form onSubmit={submit} noValidate aria-label="Пароль по приглашению">
            <p className="mb-4">
              Учётная запись <b data-testid="invite-username">{invite.data.username}</b>. Задайте пароль —
              ссылка действует до{' '}
              {new Date(invite.data.expiresAt).toLocaleString('ru-RU', {
                dateStyle: 'short',
                timeStyle: 'short',
              })}{' '}
              и только один раз.
            </p>
            {(
              [
                ['password', 'Пароль', password, setPassword],
                ['repeat', 'Пароль ещё раз', repeat, setRepeat],
              ] as const
            ).map(([name, label, value, set]) => (
              <label key={name} className="mb-4 block">
                <span className="mb-1 block font-semibold">{label}</span>
                <span className="relative block">
                  <Icon
                    path={mdiAsterisk}
                    className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-500"
                  />
                  <input
                    name={name}
                    type="password"
                    autoComplete="new-password"
                    className={`${inputClass} pl-10`}
                    value={value}
                    onChange={(e) => set(e.target.value)}
                  />
                </span>
              </label>
            ))}
            {error && (
              <p
                role="alert"
                data-testid="invite-form-error"
                className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white"
              >
                {error}
              </p>
            )}
            <Button type="submit" color="info" disabled={sending} className="w-full">
              {sending ? 'Сохраняю…' : 'Задать пароль и войти'}
            </Button>
          </form>
        )}
      </div>
    </GuestFrame>
  );
}
