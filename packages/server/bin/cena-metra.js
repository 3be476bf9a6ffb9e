#!/usr/bin/env -S node --max-semi-space-size=4
// A small young generation keeps the server's resident memory flat under load; on the embedded database
// the old one grows slowly too (`--heap-growing-percent=10`, set when PGlite opens: lib/heap.ts), without
// --optimize-for-size, which did the same but slowed imports 3× and stats at scale (docs/performance.md).
// `npm start` passes the same flags.
// the CLI as one module (scripts/bundle.mjs; dist/src/cli/index.js is the same CLI, file by file)
import('../dist/src/cli/bundle.js');
