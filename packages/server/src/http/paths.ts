/**
 * What a request-target names, read as the router reads it (DESIGN §12.1): the origin of an absolute-form
 * target dropped, the query and fragment cut, percent-encoding decoded, doubled slashes and dot segments
 * resolved, a backslash read as a slash. Only for what is not a route's decision (the not-found answer, a 405's `Allow`): the guard
 * decides on the route the router matched, never on this text.
 */
export function canonicalPath(target: string): string {
  let path = target;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (origin) path = path.slice(origin[0].length) || '/';
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  // decoded until it stops changing (at most a few times): a doubly encoded «%2561pi» is still the API's
  for (let i = 0; i < 4 && path.includes('%'); i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // malformed encoding is refused before any route runs (http/edge.ts); keep the text as it came
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const out: string[] = [];
  // a backslash is a slash to a browser's URL parser (WHATWG) and to many proxies
  for (const segment of path.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}${/[/\\]$/.test(path) && out.length ? '/' : ''}`;
}

/**
 * Whether a path (canonical, or a route's declared path) is the API's, in any case and any Unicode form
 * that folds to it (a fullwidth «ａｐｉ» is the API's too: a 404 of the API, not the web app's page).
 */
export function isApiPath(path: string): boolean {
  const p = path.normalize('NFKC').toLowerCase();
  return p === '/api' || p.startsWith('/api/') || p.startsWith('/api;');
}

/** The API's own documentation (Swagger UI and its files): open, it says what the OpenAPI document says. */
export const DOCS_PREFIX = '/api/docs';
