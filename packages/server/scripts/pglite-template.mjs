// The empty PGlite cluster a new data dir is loaded from (src/db/pglite-template.ts, docs/decisions.md): made
// by initdb once per installed PGlite version, as PGlite's own dump. Skipped when the one in dist/ is of that
// version already.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  pgliteVersion,
  TEMPLATE_FILE,
  TEMPLATE_KEY_FILE,
  TEMPLATE_MARK,
} from '../dist/src/db/pglite-template.js';

const version = pgliteVersion();
let current = null;
try {
  current = JSON.parse(readFileSync(TEMPLATE_KEY_FILE, 'utf8')).pglite;
} catch {}
if (current !== version) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cena-pglite-template-'));
  try {
    const db = await PGlite.create(join(dir, 'pgdata'));
    // what a database loaded from it shows (and a test looks for): the cluster is this template
    await db.exec(`comment on database postgres is '${TEMPLATE_MARK} ${version}'`);
    await db.exec('checkpoint');
    const dump = await db.dumpDataDir('gzip');
    await db.close();
    // written whole, then named: a build stopped halfway leaves no template, not half of one
    // (a part of this process's own: two builds at once do not write into one file)
    const part = `${TEMPLATE_FILE}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    renameSync(part, TEMPLATE_FILE);
    writeFileSync(TEMPLATE_KEY_FILE, `${JSON.stringify({ pglite: version })}\n`);
    console.log(
      `PGlite ${version}: пустой кластер для новых баз за ${((Date.now() - started) / 1000).toFixed(1)} с`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
