import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built bin as `npm start` runs it (npm test builds first), with a module hook that writes down every module
// the process resolves: a server on PGlite without a bot loads neither grammY nor PostgreSQL's client (each
// ~40–80 ms of a start, docs/performance.md «Session 33»), nor undici (the collector's client, ~100 ms: loaded by
// the first collection), nor Fastify's Ajv compiler (the routes' schemas are zod's), nor the Excel writer (the first
// export loads it); our code is one module (the bundle); and the CLI holds its loop while the command runs
// (lib/hold-loop.ts, session 34)
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/cena-metra.js');
const work = mkdtempSync(join(tmpdir(), 'cena-start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function serveAndList(env: NodeJS.ProcessEnv): Promise<string[]> {
  const out = join(work, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(out, '');
  writeFileSync(
    join(work, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, r.url + '\\n');
  return r;
}`,
  );
  writeFileSync(
    join(work, 'register.mjs'),
    `import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(new URL('./hooks.mjs', import.meta.url), { data: { out: process.env.LOADED_OUT } });
// the timers the process sets up with their delays: the CLI's hold of its loop is one (lib/hold-loop.ts)
const setInterval = globalThis.setInterval;
globalThis.setInterval = (f, ms, ...rest) => {
  appendFileSync(process.env.LOADED_OUT, 'interval:' + ms + '\\n');
  return setInterval(f, ms, ...rest);
};`,
  );
  const dataDir = mkdtempSync(join(work, 'data-'));
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(work, 'register.mjs'),
        BIN,
        '--data-dir',
        dataDir,
        'serve',
        '--port',
        '0',
        '--no-demo',
      ],
      {
        env: { ...process.env, ...env, LOADED_OUT: out, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      text += d;
      // listening, and the bot's line written (the bot is started beside the server)
      if (/Цена метра: http/.test(text) && /telegram: бот/.test(text)) child.kill('SIGTERM');
    });
    child.on('close', () => {
      if (!/Цена метра: http/.test(text)) return fail(new Error(`serve did not start: ${err.slice(-1000)}`));
      done(readFileSync(out, 'utf8').split('\n').filter(Boolean));
    });
  });
}

const packageOf = (url: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? null;

describe('a server’s start', () => {
  it('on PGlite without TELEGRAM_BOT_TOKEN loads neither grammY, pg, undici, Ajv nor the Excel writer (the modules it resolves)', async () => {
    const loaded = await serveAndList({ DATABASE_URL: '', TELEGRAM_BOT_TOKEN: '' });
    const packages = new Set(loaded.map(packageOf).filter((p): p is string => p !== null));
    // the record works: the database and the HTTP server it does load
    expect(packages.has('@electric-sql/pglite')).toBe(true);
    expect(packages.has('fastify')).toBe(true);
    expect(
      [...packages].filter((p) =>
        [
          'grammy',
          'pg',
          'pg-copy-streams',
          'undici',
          'ajv',
          '@fastify/ajv-compiler',
          'write-excel-file',
        ].includes(p),
      ),
    ).toEqual([]);
    // our code is one module (scripts/bundle.mjs), zod and the contract inside it
    expect(
      loaded.filter((url) => url.includes('/dist/src/')).map((url) => url.split('/dist/src/')[1]),
    ).toEqual(['cli/bundle.js']);
    expect(packages.has('zod')).toBe(false);
    // the CLI holds its loop while the command runs
    expect(loaded).toContain(`interval:${2 ** 30}`);
  }, 120_000);

  it('run as its shebang says, the process has malloc’s transparent huge pages asked for (GLIBC_TUNABLES)', async () => {
    const out = join(work, 'tunables.txt');
    const probe = join(work, 'tunables.mjs');
    writeFileSync(
      probe,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(out)}, process.env.GLIBC_TUNABLES ?? 'none');`,
    );
    const { GLIBC_TUNABLES: _own, ...env } = process.env;
    await new Promise<void>((done, fail) => {
      // the bin itself, not node with it as an argument: what npm's link and a service run
      const child = spawn(BIN, ['--help'], {
        env: { ...env, NODE_OPTIONS: `--import ${probe}` },
        stdio: 'ignore',
      });
      child.on('error', fail);
      child.on('close', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}`))));
    });
    expect(readFileSync(out, 'utf8')).toBe('glibc.malloc.hugetlb=1');
  }, 60_000);
});
