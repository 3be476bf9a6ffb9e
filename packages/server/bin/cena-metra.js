#!/usr/bin/env -S node --max-semi-space-size=4 --optimize-for-size
// A small young generation keeps the server's resident memory flat under load (docs/performance.md);
// `npm start` passes the same flag.
import('../dist/src/cli/index.js');
