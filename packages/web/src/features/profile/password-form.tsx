import { type FormEvent, useState } from 'react';
import { Button, Card, inputClass } from '../../components/ui';
import { changePassword } from './api';

/** Checks of the form before it is sent: the messages name the field. */
export function passwordProblems(current: string, next: string, repeat: string): string | null {
  if (!current) return 'Текущий пароль: введите его';
  if (next.length < 8) return 'Новый пароль: не короче 8 символов';
  if (next.length > 200) return 'Новый пароль: не длиннее 200 символов';
  if (next !== repeat) return 'Повтор пароля: не совпадает с новым паролем';
  if (next === current) return 'Новый пароль: совпадает с текущим';
  return null;
}

const SERVER_FIELDS: Record<string, string> = {
  currentPassword: 'Текущий пароль',
  newPassword: 'Новый пароль',
};

/** Change of password: other sessions are signed out by the server, this one stays. */
export function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [sending, setSending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    const problem = passwordProblems(current, next, repeat);
    if (problem) return setError(problem);
    setSending(true);
    setError(null);
    try {
      await changePassword(current, next);
      setDone(true);
      setCurrent('');
      setNext('');
      setRepeat('');
    } catch (err) {
      const message = (err as Error).message;
      const [field, ...rest] = message.split(': ');
      setError(SERVER_FIELDS[field] ? `${SERVER_FIELDS[field]}: ${rest.join(': ')}` : message);
    } finally {
      setSending(false);
    }
  };
  const field = (
    label: string,
    value: string,
    set: (v: string) => void,
    name: string,
    autoComplete: string,
  ) => (
    <label className="mb-4 block">
      <span className="mb-1 block font-semibold">{label}</span>
      <input
        type="password"
        name={name}
        autoComplete={autoComplete}
        className={inputClass}
        value={value}
        onChange={(e) => set(e.target.value)}
      />
    </label>
  );
  return (
    <Card title="Смена пароля">
      <form onSubmit={submit} noValidate aria-label="Смена пароля" className="max-w-md">
        {field('Текущий пароль', current, setCurrent, 'currentPassword', 'current-password')}
        {field('Новый пароль', next, setNext, 'newPassword', 'new-password')}
        {field('Повтор нового пароля', repeat, setRepeat, 'repeatPassword', 'new-password')}
        <p className="mb-4 text-gray-500 text-sm dark:text-slate-400">
          Не короче 8 символов. Другие сеансы будут завершены.
        </p>
        {error && (
          <p
            role="alert"
            data-testid="password-error"
            className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white"
          >
            {error}
          </p>
        )}
        {done && (
          <p
            role="status"
            data-testid="password-done"
            className="mb-4 rounded-lg bg-emerald-600 px-4 py-3 text-white"
          >
            Пароль изменён. Другие сеансы завершены.
          </p>
        )}
        <Button type="submit" color="info" disabled={sending}>
          {sending ? 'Сохранение…' : 'Сменить пароль'}
        </Button>
      </form>
    </Card>
  );
}
