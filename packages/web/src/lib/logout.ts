import { sessionStore, signOut } from './session';

/** Revokes the token on the server (best effort) and forgets the session here. */
export async function logout(): Promise<void> {
  const session = sessionStore.get();
  signOut();
  if (!session) return;
  try {
    await fetch('/api/auth/logout', {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
    });
  } catch {
    // offline: the token expires on its own
  }
}
