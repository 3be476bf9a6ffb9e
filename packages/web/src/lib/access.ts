import { type Role, roleAtLeast } from '@cena-metra/contract';
import { useSession } from './session';

/** What a page or a button needs (DESIGN §11.5): an analyst (or admin), or an admin. */
export type Need = 'analyst' | 'admin';

/** The server's rule (contract's `roleAtLeast`): the web hides what the API would refuse. */
export function may(role: Role | undefined, need: Need): boolean {
  return roleAtLeast(role, need);
}

/** Whether the signed-in user may; false while their role is not known yet. */
export function useMay(need: Need): boolean {
  return may(useSession()?.role, need);
}

/** CSV and Excel downloads: everyone but viewers when the server keeps them from viewers. */
export function useCanExport(): boolean {
  const session = useSession();
  return session?.role !== undefined && (roleAtLeast(session.role, 'analyst') || session.canExport !== false);
}
