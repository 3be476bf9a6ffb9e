import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SRC_ROOT } from './paths.js';

/** The built web app beside the server in the monorepo (packages/web/dist), if it has been built. */
export function builtWebApp(): string | undefined {
  const root = fileURLToPath(new URL('../../../web/dist/', SRC_ROOT));
  return existsSync(`${root}index.html`) ? root : undefined;
}
