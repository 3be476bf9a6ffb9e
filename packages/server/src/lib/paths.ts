/**
 * The compiled sources' root (dist/src/; src/ when the tests run the sources): this module is one folder below
 * it, and so is the server's bundle (dist/src/cli/bundle.js, scripts/bundle.mjs), into which it is inlined —
 * a path made from here is the same from either.
 */
export const SRC_ROOT = new URL('../', import.meta.url);
