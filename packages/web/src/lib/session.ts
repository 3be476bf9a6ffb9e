import type { Me, Role } from '@cena-metra/contract';
import { createStore, useStore } from './store';

/**
 * The signed-in user `{username, token, role, canExport}`, kept in localStorage `user` (spec §3) and
 * restored on start. `role` may be unknown for a session kept before roles existed: /auth/me tells it.
 */
export interface WebSession {
  username: string;
  token: string;
  role?: Role;
  canExport?: boolean;
}

const STORAGE_KEY = 'user';
const ROLES: readonly string[] = ['admin', 'analyst', 'viewer'];

function restore(): WebSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<WebSession>;
    if (typeof parsed.username !== 'string' || typeof parsed.token !== 'string') return null;
    return {
      username: parsed.username,
      token: parsed.token,
      ...(ROLES.includes(parsed.role as string) ? { role: parsed.role } : {}),
      ...(typeof parsed.canExport === 'boolean' ? { canExport: parsed.canExport } : {}),
    };
  } catch {
    return null;
  }
}

export const sessionStore = createStore<WebSession | null>(restore());

function keep(session: WebSession): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  sessionStore.set(session);
}

export function signIn(session: WebSession): void {
  keep(session);
}

/** What /auth/me says now (a role an admin changed takes effect without signing in again). */
export function refreshSession(me: Me): void {
  const current = sessionStore.get();
  if (!current || current.username !== me.username) return;
  if (current.role === me.role && current.canExport === me.canExport) return;
  keep({ ...current, role: me.role, canExport: me.canExport });
}

export function signOut(): void {
  localStorage.removeItem(STORAGE_KEY);
  sessionStore.set(null);
}

export const useSession = () => useStore(sessionStore);
