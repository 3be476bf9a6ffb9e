import { mdiAccount, mdiAsterisk } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { Icon } from '../../components/icon';
import { Button, inputClass } from '../../components/ui';
import { ApiError } from '../../lib/api-client';
import { signIn } from '../../lib/session';
import { logIn } from './api';

/** Login card: the server's message on failure, the button disabled while sending. */
export function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim()) return setError('Введите логин');
    if (!password) return setError('Введите пароль');
    setSending(true);
    setError(null);
    try {
      const session = await logIn(username.trim(), password);
      signIn(session);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401 ? 'Неверный логин или пароль' : (err as Error).message,
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="w-full max-w-md rounded-2xl bg-white p-6 dark:bg-slate-900"
      aria-label="Вход"
    >
      <h1 className="mb-6 font-bold text-2xl">Вход в Цену метра</h1>
      <label className="mb-4 block">
        <span className="mb-1 block font-semibold">Логин</span>
        <span className="relative block">
          <Icon path={mdiAccount} className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-500" />
          <input
            name="username"
            autoComplete="username"
            className={`${inputClass} pl-10`}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </span>
      </label>
      <label className="mb-4 block">
        <span className="mb-1 block font-semibold">Пароль</span>
        <span className="relative block">
          <Icon path={mdiAsterisk} className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-500" />
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            className={`${inputClass} pl-10`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </span>
      </label>
      <label className="mb-6 flex items-center gap-2">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Запомнить меня
      </label>
      {error && (
        <p role="alert" data-testid="login-error" className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white">
          {error}
        </p>
      )}
      <Button type="submit" color="info" disabled={sending} className="w-full">
        {sending ? 'Вход…' : 'Войти'}
      </Button>
    </form>
  );
}
