import { type Role, roleAtLeast } from '@cena-metra/contract';
import { DOCS_PREFIX, isApiPath } from '../http/paths.js';

/**
 * Who may call what (DESIGN §11.5). `public`: anyone; `viewer`: any signed-in user; `export`: a download
 * (viewers only while VIEWERS_EXPORT is on); `analyst`: analysts and admins; `admin`: admins.
 */
export type Access = 'public' | 'viewer' | 'export' | 'analyst' | 'admin';

/**
 * The one table of the API's routes and who may call them: `METHOD /api/path` as Fastify registers it
 * (the route's declared path, which the guard takes from the router: DESIGN §12.1). A route under /api
 * that is not here cannot be registered (app.ts) and is refused to everyone; test/roles.test.ts holds
 * this table to the OpenAPI document both ways, so a new route cannot go unsaid.
 */
export const ROUTE_ACCESS: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/openapi.json': 'public',
  'POST /api/auth/login': 'public',
  'GET /api/auth/invite/:token': 'public',
  'POST /api/auth/invite/:token': 'public',
  'POST /api/auth/logout': 'viewer',
  'POST /api/auth/password': 'viewer',
  'GET /api/auth/me': 'viewer',
  'GET /api/auth/sessions': 'viewer',
  'DELETE /api/auth/sessions/:id': 'viewer',
  // the daily summaries and a flat's history are open: the bot's buttons and the channel link to them
  'GET /api/summaries': 'public',
  'GET /api/summary/:id': 'public',
  'GET /api/summary/:id/project/:projectId': 'public',
  'GET /api/summary/flat/:flatId': 'public',
  // reads
  'GET /api/developers': 'viewer',
  'GET /api/projects': 'viewer',
  'GET /api/projects/:id/quality': 'viewer',
  'GET /api/places': 'viewer',
  'GET /api/map/config': 'viewer',
  'GET /api/places/projects': 'viewer',
  'GET /api/projects/:id/place': 'viewer',
  'GET /api/projects/:id/class': 'viewer',
  'POST /api/project/stats': 'viewer',
  'POST /api/project/stats/columns': 'viewer',
  'POST /api/project/offer-prices': 'viewer',
  'POST /api/project/pace': 'viewer',
  'POST /api/project/pace/rows': 'viewer',
  'POST /api/project/distribution': 'viewer',
  'POST /api/project/index': 'viewer',
  'POST /api/market': 'viewer',
  'POST /api/market/pace': 'viewer',
  'POST /api/market/map': 'viewer',
  'POST /api/market/hedonic': 'viewer',
  'POST /api/market/below-comparables': 'viewer',
  'POST /api/compare': 'viewer',
  'GET /api/chess': 'viewer',
  'POST /api/discount': 'viewer',
  'POST /api/discount/project': 'viewer',
  'GET /api/price-changes': 'viewer',
  'GET /api/flat': 'viewer',
  'GET /api/flat/fair': 'viewer',
  'GET /api/search': 'viewer',
  'GET /api/registry/objects': 'viewer',
  'GET /api/registry/candidates': 'viewer',
  'GET /api/registry/shifts': 'viewer',
  'GET /api/registry/reliability': 'viewer',
  'POST /api/registry/sales': 'viewer',
  'POST /api/registry/pipeline': 'viewer',
  'POST /api/registry/market': 'viewer',
  'GET /api/price-changes.csv': 'export',
  'GET /api/price-changes.xlsx': 'export',
  // a Telegram chat linked to the account: the bot then knows who asks (viewers too)
  'GET /api/profile/telegram': 'viewer',
  'POST /api/profile/telegram': 'viewer',
  'DELETE /api/profile/telegram': 'viewer',
  // an analyst's own watchlist and its alerts
  'GET /api/watches': 'analyst',
  'POST /api/watches': 'analyst',
  'PATCH /api/watches/:id': 'analyst',
  'DELETE /api/watches/:id': 'analyst',
  'GET /api/alerts': 'analyst',
  'POST /api/alerts/read': 'analyst',
  // users, sources, imports, settings, the audit log
  'PUT /api/projects/:id/place': 'admin',
  'PUT /api/projects/:id/class': 'admin',
  'PUT /api/registry/objects/:objId/link': 'admin',
  'DELETE /api/registry/objects/:objId/link': 'admin',
  'POST /api/ingest/snapshots': 'admin',
  'GET /api/sources': 'admin',
  'POST /api/sources': 'admin',
  'PATCH /api/sources/:id': 'admin',
  'DELETE /api/sources/:id': 'admin',
  'POST /api/sources/:id/run': 'admin',
  'GET /api/sources/:id/runs': 'admin',
  'GET /api/users': 'admin',
  'POST /api/users': 'admin',
  'PATCH /api/users/:id': 'admin',
  'POST /api/users/:id/invite': 'admin',
  'DELETE /api/users/:id/sessions': 'admin',
  'GET /api/audit': 'admin',
  'GET /api/audit.csv': 'admin',
  // a CORS preflight (registered only when CORS_ORIGINS is set) carries no data and no credentials
  'OPTIONS *': 'public',
};

/**
 * The access of a matched route, by its method and declared path (HEAD as its GET): the table's entry;
 * the documentation's pages and, outside /api, the web app's files and the demo's feeds are read by anyone
 * (GET only). Undefined: nobody may call it.
 */
export function accessOf(method: string, route: string): Access | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  const listed = ROUTE_ACCESS[`${m} ${route}`];
  if (listed || m !== 'GET') return listed;
  if (route === DOCS_PREFIX || route.startsWith(`${DOCS_PREFIX}/`) || !isApiPath(route)) return 'public';
  return undefined;
}

/** Whether a role may call a route of this access. */
export function allows(role: Role, access: Access, viewersExport: boolean): boolean {
  switch (access) {
    case 'public':
    case 'viewer':
      return true;
    case 'export':
      return viewersExport || roleAtLeast(role, 'analyst');
    case 'analyst':
    case 'admin':
      return roleAtLeast(role, access);
  }
}
