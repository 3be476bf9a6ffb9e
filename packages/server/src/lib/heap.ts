import { setFlagsFromString } from 'node:v8';

let limited = false;

/**
 * A process that serves or imports on the embedded database lets its JavaScript heap grow only 10% past
 * what a full collection left (V8 reads the factor at every collection, so it applies from here on):
 * PGlite's engine is resident in the same process, and under load V8's own growth took the demo server
 * from ~300 to 515 MB. A process on a PostgreSQL server keeps V8's growth: with 10% the market's first
 * ranking of 5,000 projects ran eight full collections of a 40 MB heap, a fifth of its time. So does the
 * demo's generation, batch work: `npm start`'s first start took 59.5 s with the limit in the demo's child
 * process, 51.1 s without (docs/performance.md, session 18).
 */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=10');
  limited = true;
}

/** Whether this process has limited its heap's growth (V8 has no reading of the flag back). */
export const heapGrowthLimited = (): boolean => limited;
