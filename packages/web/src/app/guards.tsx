import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useSession } from '../lib/session';

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
