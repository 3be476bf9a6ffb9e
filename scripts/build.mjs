// Builds what changed since the last build (issue «first five minutes»): each package's inputs are hashed
// and the hash is kept beside its output (dist/.build-stamp); a package is built again only when that hash
// differs — a changed source, config, lock file or a rebuilt package it depends on — or its output is gone.
// `node scripts/build.mjs [package…]` builds the stale ones in order; `--force` builds all; `--dry-run`
// says which.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The packages in build order, each with those it is built against. */
export const PACKAGES = [
  { name: 'contract', dir: 'packages/contract', deps: [] },
  { name: 'server', dir: 'packages/server', deps: ['contract'] },
  { name: 'web', dir: 'packages/web', deps: ['contract'] },
];

/** Inputs of every package: the shared compiler settings and the installed dependency versions. */
const SHARED = ['tsconfig.base.json', 'package-lock.json'];

/** What in a package is not an input to its build: its output, its dependencies, its tests. */
const skipped = (name) =>
  name === 'node_modules' || name === 'dist' || name === 'test' || /\.test\.tsx?$/.test(name);

/** The package's input files, relative to the root, in a stable order. */
function inputFiles(root, dir) {
  const out = [];
  const walk = (at) => {
    for (const e of readdirSync(join(root, at), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      if (skipped(e.name)) continue;
      const path = join(at, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) out.push(path);
    }
  };
  walk(dir);
  return out;
}

const stampFile = (root, pkg) => join(root, pkg.dir, 'dist', '.build-stamp');

/**
 * Which packages must be built: for each, the hash of its inputs (its files' paths and bytes, the shared
 * inputs, the hashes of the packages it depends on) and whether its output holds that hash.
 */
export function buildPlan(root, packages = PACKAGES) {
  const hashes = new Map();
  return packages.map((pkg) => {
    const hash = createHash('sha256');
    for (const file of [...SHARED.filter((f) => existsSync(join(root, f))), ...inputFiles(root, pkg.dir)]) {
      hash.update(`${relative(root, join(root, file))}\0`);
      hash.update(readFileSync(join(root, file)));
      hash.update('\0');
    }
    for (const dep of pkg.deps) hash.update(`${dep}:${hashes.get(dep)}\0`);
    const digest = hash.digest('hex');
    hashes.set(pkg.name, digest);
    const stamp = stampFile(root, pkg);
    const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
    return { ...pkg, hash: digest, stale: built !== digest };
  });
}

/**
 * Whether `npm start` starts on no database at all: PGlite (no DATABASE_URL) and a data dir (DATA_DIR, else
 * ./data beside the checkout) without one. Then the demo is generated while the web app is built.
 */
export function firstStart(root, env = process.env) {
  return !env.DATABASE_URL && !existsSync(join(resolve(root, env.DATA_DIR || 'data'), 'PG_VERSION'));
}

/** Keeps the hash a package was built from beside its output. */
export function markBuilt(root, pkg) {
  writeFileSync(stampFile(root, pkg), `${pkg.hash}\n`);
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const force = process.argv.includes('--force');
  // named packages only (e.g. `contract server` at install), else all
  const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const unknown = named.filter((n) => !PACKAGES.some((p) => p.name === n));
  if (unknown.length) {
    console.error(
      `сборка: неизвестный пакет ${unknown.join(', ')}; есть ${PACKAGES.map((p) => p.name).join(', ')}`,
    );
    process.exit(2);
  }
  const plan = buildPlan(root).filter((p) => named.length === 0 || named.includes(p.name));
  const todo = plan.filter((p) => force || p.stale);
  if (process.argv.includes('--dry-run')) {
    for (const p of plan) console.log(`${p.name}: ${force || p.stale ? 'собрать' : 'собран'}`);
    return;
  }
  if (todo.length === 0) {
    console.log('сборка: всё собрано, изменений нет');
    return;
  }
  for (const pkg of todo) {
    const started = Date.now();
    console.log(`сборка: ${pkg.name}…`);
    const run = spawnSync('npm', ['run', 'build', '-w', pkg.dir], { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) {
      console.error(`сборка: ${pkg.name} не собрался (код ${run.status})`);
      process.exit(run.status ?? 1);
    }
    markBuilt(root, pkg);
    console.log(`сборка: ${pkg.name} за ${((Date.now() - started) / 1000).toFixed(1)} с`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
