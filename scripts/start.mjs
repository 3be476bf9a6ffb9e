// `npm start` (DESIGN §8.1, issue «first five minutes»): builds what changed, then serves. On a first start
// — PGlite with a data dir that holds no database yet — the web app is built while the demo market is
// generated (`cena-metra demo --if-empty`): the two take different cores; the server starts when both are
// done. Otherwise the build, then `cena-metra serve` (which itself generates the demo on an empty database).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlan, firstStart, markBuilt } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// the server's CLI as one module (packages/server/scripts/bundle.mjs)
const cli = join(root, 'packages/server/dist/src/cli/bundle.js');
// the server's flags (packages/server/bin/cena-metra.js); the demo runs with Node's defaults, as under serve
const SERVER_FLAGS = ['--max-semi-space-size=4'];
// as the bin's shebang: malloc's fresh memory in transparent huge pages (docs/decisions.md), for the demo's
// generation and the server alike; an operator's own setting stays
process.env.GLIBC_TUNABLES ??= 'glibc.malloc.hugetlb=1';

/** Runs a child sharing this terminal; resolves on exit 0, else exits this process with its code. */
function run(command, args, what) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('error', (error) => {
      console.error(`${what}: ${error.message}`);
      process.exit(1);
    });
    child.on('exit', (code, signal) => {
      if (code === 0) return done();
      if (signal) process.kill(process.pid, signal);
      console.error(`${what}: завершилось с кодом ${code}`);
      process.exit(code ?? 1);
    });
  });
}

async function build(pkg) {
  const started = Date.now();
  console.log(`сборка: ${pkg.name}…`);
  await run('npm', ['run', 'build', '-w', pkg.dir], `сборка ${pkg.name}`);
  markBuilt(root, pkg);
  console.log(`сборка: ${pkg.name} за ${((Date.now() - started) / 1000).toFixed(1)} с`);
}

const plan = buildPlan(root);
const web = plan.find((p) => p.name === 'web');
// the contract and the server first (built at install; again only when their sources changed)
for (const pkg of plan) if (pkg !== web && pkg.stale) await build(pkg);
const work = [];
if (web.stale) work.push(build(web));
if (firstStart(root)) work.push(run(process.execPath, [cli, 'demo', '--if-empty'], 'демо-данные'));
await Promise.all(work);
// the server in its own process (its flags), sharing this terminal; a signal to npm reaches it too
const server = spawn(process.execPath, [...SERVER_FLAGS, cli, 'serve', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
