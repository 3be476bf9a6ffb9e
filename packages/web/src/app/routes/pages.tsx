import { mdiAlertCircle } from '@mdi/js';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Card, Section, SectionTitle } from '../../components/ui';
import { LoginForm } from '../../features/auth/login-form';
import { useSession } from '../../features/auth/session';
import { useTitle } from '../../lib/use-title';

function GuestFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-tr from-purple-400 via-pink-500 to-red-500 p-6 dark:from-slate-900 dark:via-slate-800 dark:to-slate-900">
      {children}
    </div>
  );
}

export function LoginPage() {
  useTitle('Вход');
  // once signed in, GuestOnly sends the user on to the wanted URL
  return (
    <GuestFrame>
      <LoginForm />
    </GuestFrame>
  );
}

export function ErrorPage() {
  useTitle('Ошибка');
  return (
    <GuestFrame>
      <Card className="w-full max-w-md text-center">
        <h1 className="mb-6 font-bold text-2xl">Произошла ошибка</h1>
        <Link to="/">
          <Button color="info">На главную</Button>
        </Link>
      </Card>
    </GuestFrame>
  );
}

/** Pages of later issues: titled and reachable, saying plainly that they are not built yet. */
export function ComingPage({ title }: { title: string }) {
  useTitle(title);
  return (
    <Section>
      <SectionTitle icon={mdiAlertCircle}>{title}</SectionTitle>
      <Card>
        <p className="text-gray-600 dark:text-slate-300">Раздел появится в следующей версии.</p>
      </Card>
    </Section>
  );
}

export function ProfilePage() {
  useTitle('Профиль');
  const session = useSession();
  return (
    <Section>
      <SectionTitle>Профиль</SectionTitle>
      <Card>
        <p>
          Пользователь: <b data-testid="profile-username">{session?.username}</b>
        </p>
      </Card>
    </Section>
  );
}
