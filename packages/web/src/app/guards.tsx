import { ROLE_LABELS } from '@cena-metra/contract';
import { mdiLockAlertOutline } from '@mdi/js';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { useMe } from '../api/session';
import { Button, Card, Section, SectionTitle } from '../components/ui';
import { may, type Need } from '../lib/access';
import { useSession } from '../lib/session';
import { useTitle } from '../lib/use-title';

/** Routes for signed-in users: others go to /login, which returns them here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const wanted = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(wanted)}`} replace />;
  }
  return children;
}

/** /login is for guests only: a signed-in user goes to the wanted URL (`redirect`) or to /. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  return useSession() ? <Navigate to={safeRedirect(params.get('redirect'))} replace /> : children;
}

/** A redirect target is only ever a path of this app (never another origin). */
export function safeRedirect(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * A page a role needs (DESIGN §11.5): the page for those who may, a clear «нет доступа» for the others,
 * and a moment's wait while the role of a session kept from before roles is asked.
 */
export function RequireRole({ need, children }: { need: Need; children: ReactNode }) {
  const role = useSession()?.role;
  const me = useMe();
  if (!role)
    return me.error ? (
      <p role="alert" className="m-6 rounded-lg bg-red-600 px-4 py-3 text-white">
        Не удалось узнать роль: {(me.error as Error).message}
      </p>
    ) : (
      <div className="p-6 text-gray-500" aria-busy="true">
        Загрузка…
      </div>
    );
  return may(role, need) ? children : <NoAccess need={need} />;
}

export function NoAccess({ need }: { need: Need }) {
  useTitle('Нет доступа');
  const role = useSession()?.role;
  return (
    <Section>
      <SectionTitle icon={mdiLockAlertOutline}>Нет доступа</SectionTitle>
      <Card>
        <div data-testid="no-access">
          <p className="mb-2 font-semibold text-lg">У вас нет доступа к этой странице.</p>
          <p className="mb-6 text-gray-600 dark:text-slate-400">
            {need === 'admin'
              ? 'Она доступна только администраторам'
              : 'Она доступна аналитикам и администраторам'}
            {role ? `, а ваша роль — «${ROLE_LABELS[role]}».` : '.'} Если доступ нужен для работы, попросите
            администратора сменить роль.
          </p>
          <Link to="/">
            <Button color="info">На главную</Button>
          </Link>
        </div>
      </Card>
    </Section>
  );
}
