import type { Session } from '@cena-metra/contract';
import { createStore, useStore } from './store';

/** The signed-in user `{username, token}`, kept in localStorage `user` (spec §3) and restored on start. */
const STORAGE_KEY = 'user';

function restore(): Session | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.username === 'string' && typeof parsed.token === 'string'
      ? { username: parsed.username, token: parsed.token }
      : null;
  } catch {
    return null;
  }
}

export const sessionStore = createStore<Session | null>(restore());

export function signIn(session: Session): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  sessionStore.set(session);
}

export function signOut(): void {
  localStorage.removeItem(STORAGE_KEY);
  sessionStore.set(null);
}

export const useSession = () => useStore(sessionStore);
