import { mdiAccountCircle, mdiLogout } from '@mdi/js';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Card, Section, SectionTitle } from '../../components/ui';
import { LoginForm } from '../../features/auth/login-form';
import { logout } from '../../features/auth/logout';
import { useSession } from '../../features/auth/session';
import { PasswordForm } from '../../features/profile/password-form';
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

export function ProfilePage() {
  useTitle('Профиль');
  const session = useSession();
  const navigate = useNavigate();
  return (
    <Section>
      <SectionTitle icon={mdiAccountCircle}>Профиль</SectionTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Учётная запись">
          <p className="mb-6">
            Пользователь: <b data-testid="profile-username">{session?.username}</b>
          </p>
          <Button icon={mdiLogout} onClick={() => void logout().then(() => navigate('/login'))}>
            Выйти
          </Button>
        </Card>
        <PasswordForm />
      </div>
    </Section>
  );
}
