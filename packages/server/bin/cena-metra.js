#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.hugetlb=1 node --max-semi-space-size=4
// glibc's malloc asks for transparent huge pages (Linux's default is to give them only when asked): a large
// read's fresh buffers fault in 2 MB pages, not 4 KB ones — on a VM a 4 KB fault costs ~15 µs, and the
// market's 5,000 summaries are ~100 MB of them (docs/decisions.md). Elsewhere the variable means nothing.
// A small young generation keeps the server's resident memory flat under load; on the embedded database
// the old one grows slowly too (`--heap-growing-percent=10`, set when PGlite opens: lib/heap.ts), without
// --optimize-for-size, which did the same but slowed imports 3× and stats at scale (docs/performance.md).
// `npm start` passes the same flags.
// the CLI as one module (scripts/bundle.mjs; dist/src/cli/index.js is the same CLI, file by file)
import('../dist/src/cli/bundle.js');
