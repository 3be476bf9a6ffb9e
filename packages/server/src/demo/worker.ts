import { parentPort, workerData } from 'node:worker_threads';
import { contentHash } from '../ingest/snapshot.js';
import { type DemoOptions, planDemo } from './generate.js';
import { demoLists } from './lists.js';
import { WireEncoder } from './wire.js';

/**
 * The demo's lists made on a second core (demo/run.ts): generated, validated and hashed here while the
 * main thread imports the ones before, then handed over in chunks (demo/wire.ts). At most `AHEAD` chunks
 * wait for the main thread: it acknowledges each one it has taken.
 */
const AHEAD = 24;
const LISTS_A_CHUNK = 64;

const port = parentPort!;
let credit = AHEAD;
let wake: (() => void) | null = null;
port.on('message', () => {
  credit++;
  wake?.();
  wake = null;
});

async function send(encoder: WireEncoder, project: number, days: number, last = false) {
  while (credit === 0) await new Promise<void>((done) => (wake = done));
  credit--;
  const chunk = encoder.take(project, days, last);
  port.postMessage(chunk, [chunk.columns.buffer as ArrayBuffer]);
}

try {
  const plan = planDemo(workerData as DemoOptions);
  const encoder = new WireEncoder();
  for (let p = 0; p < plan.projects.length; p++) {
    let days = 0;
    for (const item of demoLists(plan, p)) {
      days++;
      if (item === null) continue;
      encoder.add({ ...item, contentHash: contentHash(item) });
      if (encoder.size >= LISTS_A_CHUNK) {
        await send(encoder, p, days);
        days = 0;
      }
    }
    // the project's last chunk, maybe without lists: it ends the project
    await send(encoder, p, days, true);
  }
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
