#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=10
// A small young generation and a slowly growing old one keep the server's resident memory flat under
// load without --optimize-for-size, which did the same but slowed imports 3× and stats at scale
// (docs/performance.md). `npm start` passes the same flags.
import('../dist/src/cli/index.js');
