import type { Role } from '@cena-metra/contract';

// Each role × each route of the OpenAPI document → the status it gets (DESIGN §11.5). The expectations
// are written here, not read from auth/access.ts: the guard's table is held to this one.

export type Expect = 'open' | 'signed-in' | 'export' | 'analyst' | 'admin';
const OPEN = [
  'GET /api/health',
  'POST /api/auth/login',
  'GET /api/auth/invite/{token}',
  'POST /api/auth/invite/{token}',
  'GET /api/summaries',
  'GET /api/summary/{id}',
  'GET /api/summary/{id}/project/{projectId}',
  'GET /api/summary/flat/{flatId}',
];
const EXPORTS = ['GET /api/price-changes.csv', 'GET /api/price-changes.xlsx'];
const ANALYST = [
  'GET /api/watches',
  'POST /api/watches',
  'PATCH /api/watches/{id}',
  'DELETE /api/watches/{id}',
  'GET /api/alerts',
  'POST /api/alerts/read',
];
const ADMIN = [
  'PUT /api/projects/{id}/place',
  'PUT /api/projects/{id}/class',
  'PUT /api/registry/objects/{objId}/link',
  'DELETE /api/registry/objects/{objId}/link',
  'POST /api/ingest/snapshots',
  'GET /api/sources',
  'POST /api/sources',
  'PATCH /api/sources/{id}',
  'DELETE /api/sources/{id}',
  'POST /api/sources/{id}/run',
  'GET /api/sources/{id}/runs',
  'GET /api/users',
  'POST /api/users',
  'PATCH /api/users/{id}',
  'POST /api/users/{id}/invite',
  'DELETE /api/users/{id}/sessions',
  'GET /api/audit',
  'GET /api/audit.csv',
];
export const expected = (route: string): Expect =>
  OPEN.includes(route)
    ? 'open'
    : EXPORTS.includes(route)
      ? 'export'
      : ANALYST.includes(route)
        ? 'analyst'
        : ADMIN.includes(route)
          ? 'admin'
          : 'signed-in';

/** Whether a role gets through to the route (not a 401/403), with viewers' exports on or off. */
export function passes(role: Role | 'guest', want: Expect, viewersExport: boolean): boolean {
  if (want === 'open') return true;
  if (role === 'guest') return false;
  if (want === 'signed-in') return true;
  if (want === 'export') return role !== 'viewer' || viewersExport;
  if (want === 'analyst') return role !== 'viewer';
  return role === 'admin';
}

/** Path parameters that name nothing: a request that gets through ends in a 404 or a 400, never a change. */
export const PATH_VALUES: Record<string, string> = { token: 'x'.repeat(32) };
export const NOTHING = '999999';

/** The concrete address of a documented route: its parameters filled with values that name nothing. */
export const concretePath = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_m, n: string) => PATH_VALUES[n] ?? NOTHING);

/** Every `METHOD /path` of an app's OpenAPI document (the API's routes; the document lists each once). */
export function documentedRoutes(doc: unknown): { method: string; path: string; route: string }[] {
  const paths = (doc as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path, route: `${m.toUpperCase()} ${path}` })),
    );
}
