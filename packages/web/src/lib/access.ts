import type { Role } from '@cena-metra/contract';
import { useSession } from './session';

/** What a page or a button needs (DESIGN §11.5): an analyst (or admin), or an admin. */
export type Need = 'analyst' | 'admin';

export function may(role: Role | undefined, need: Need): boolean {
  return need === 'admin' ? role === 'admin' : role === 'admin' || role === 'analyst';
}

/** Whether the signed-in user may; false while their role is not known yet. */
export function useMay(need: Need): boolean {
  return may(useSession()?.role, need);
}

/** CSV and Excel downloads: everyone but viewers when the server keeps them from viewers. */
export function useCanExport(): boolean {
  const session = useSession();
  return session?.role !== undefined && (session.role !== 'viewer' || session.canExport !== false);
}
