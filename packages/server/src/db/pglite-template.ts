import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SRC_ROOT } from '../lib/paths.js';

/**
 * An empty PGlite cluster made once by the build (scripts/pglite-template.mjs), loaded into a new data dir in
 * place of running initdb there: initdb in WebAssembly is most of a first open (~2.5–5 s on two cores, every
 * new data dir — a first `npm start`, `demo`, a CLI command on a fresh `--data-dir`, each test's database),
 * its tarball ~0.2 s. It is PGlite's own dump (`dumpDataDir`) loaded by its own option (`loadDataDir`), of
 * the installed PGlite's version only: another version's template, or none, and the data dir is made by
 * initdb as before. Our tables are not in it — the migrations run on every open as they always do.
 */

/** The package's root: two folders above dist/src/, one above src/ (the tests run the sources). */
const PACKAGE_ROOT = new URL(SRC_ROOT.pathname.endsWith('/dist/src/') ? '../../' : '../', SRC_ROOT);
export const TEMPLATE_FILE = fileURLToPath(new URL('dist/pglite-template.tar.gz', PACKAGE_ROOT));
/** The comment of the template's database `postgres`, before the PGlite version it was made by. */
export const TEMPLATE_MARK = 'cena-metra: пустой кластер PGlite';
/** What the template was made by: `{ "pglite": "<version>" }` */
export const TEMPLATE_KEY_FILE = fileURLToPath(new URL('dist/pglite-template.json', PACKAGE_ROOT));

/** The installed PGlite's version (its package.json, found from its exported WebAssembly file). */
export function pgliteVersion(): string {
  const wasm = createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm');
  return (JSON.parse(readFileSync(join(dirname(wasm), '../package.json'), 'utf8')) as { version: string })
    .version;
}

/** The template at `file` if its key says the installed PGlite made it, else null. */
export function readTemplate(file = TEMPLATE_FILE, keyFile = TEMPLATE_KEY_FILE): Blob | null {
  try {
    const key = JSON.parse(readFileSync(keyFile, 'utf8')) as { pglite?: string };
    return key.pglite === pgliteVersion() ? new Blob([readFileSync(file)]) : null;
  } catch {
    // no template (a checkout not built, or one being built): initdb makes the cluster
    return null;
  }
}

/**
 * The build's template for the installed PGlite, or null (none made, or made by another version): read for
 * each new database (4.5 MB, a few ms), not held by a process that has opened its one.
 */
export const pgliteTemplate = (): Blob | null => readTemplate();

/** Whether a data dir holds no cluster yet (PGlite refuses to load a template over one). */
export const holdsNoCluster = (dataDir: string | undefined): boolean =>
  dataDir === undefined || !existsSync(join(dataDir, 'PG_VERSION'));
