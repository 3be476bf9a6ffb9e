// The server's CLI as one module (docs/decisions.md «The server's CLI bundled»): Node's loader read the ~520
// files of a server's start one by one (three file operations each on libuv's pool) and evaluated zod's 64
// locales; one file is parsed at once. Our code, the contract and zod (with its Fastify type provider, which
// must share zod's instance) go in; every other package stays outside and is imported from node_modules as
// before — PGlite finds its WebAssembly and data files beside its own code, Swagger UI its static files, and
// the ones loaded on demand (pg, grammY, undici, the Excel writer) stay so.
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/src/cli`;
const INSIDE = /^(zod|fastify-type-provider-zod|@cena-metra\/contract)(\/|$)/;

// the last build's chunks (their names carry a hash)
for (const f of readdirSync(out)) if (/^bundle(-.*)?\.js$/.test(f)) rmSync(`${out}/${f}`);
await build({
  input: `${root}dist/src/cli/index.js`,
  platform: 'node',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !INSIDE.test(id),
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: 'bundle.js',
    chunkFileNames: 'bundle-[name]-[hash].js',
  },
});
