import { ROLE_LABELS } from '@cena-metra/contract';
import { mdiAccountCircle, mdiLogout } from '@mdi/js';
import { useNavigate } from 'react-router';
import { Button, Card, Section, SectionTitle } from '../../components/ui';
import { logout } from '../../lib/logout';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { PasswordForm } from './password-form';
import { SessionsCard } from './sessions-card';
import { TelegramCard } from './telegram-card';

export function ProfilePage() {
  useTitle('Профиль');
  const session = useSession();
  const navigate = useNavigate();
  return (
    <Section>
      <SectionTitle icon={mdiAccountCircle}>Профиль</SectionTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Учётная запись">
          <p className="mb-2">
            Пользователь: <b data-testid="profile-username">{session?.username}</b>
          </p>
          <p className="mb-6">
            Роль: <b data-testid="profile-role">{session?.role ? ROLE_LABELS[session.role] : '…'}</b>
          </p>
          <Button icon={mdiLogout} onClick={() => void logout().then(() => navigate('/login'))}>
            Выйти
          </Button>
        </Card>
        <PasswordForm />
        <TelegramCard />
        <SessionsCard />
      </div>
    </Section>
  );
}
