import { Worker } from 'node:worker_threads';
import { withIndexesDeferred } from '../db/deferred-indexes.js';
import type { Db } from '../db/driver.js';
import { countProjects } from '../db/queries/catalog.js';
import { markDemoData } from '../db/queries/meta.js';
import { ensureDeveloper } from '../db/queries/projects.js';
import { addUser, getUserByName } from '../db/queries/users.js';
import type { Importer } from '../ingest/importer.js';
import type { Snapshot } from '../ingest/snapshot.js';
import { todayIso } from '../lib/days.js';
import { SRC_ROOT } from '../lib/paths.js';
import { commandHost } from '../use-cases/host.js';
import { followImport } from '../use-cases/imports.js';
import { applyRegistryImport } from '../use-cases/registry.js';
import { type DemoOptions, planDemo } from './generate.js';
import { demoLists } from './lists.js';
import { demoRegistryAnswers } from './registry.js';
import { type WireChunk, WireDecoder } from './wire.js';

export const DEMO_USER = { username: 'demo', password: 'demo' };

export interface DemoProgress {
  done: number;
  total: number;
}

/** What the worker sends: a chunk of lists, or why it stopped. */
type WorkerMessage = WireChunk | { error: string };

/**
 * The demo's lists from a worker thread (demo/worker.ts), project by project in order: made on a second
 * core while this thread imports the ones before. Each chunk taken is acknowledged, so the worker runs a
 * bounded way ahead.
 */
class WorkerLists {
  private readonly worker: Worker;
  private readonly queue: WorkerMessage[] = [];
  private wake: (() => void) | null = null;
  private readonly decoder = new WireDecoder();

  constructor(url: URL, options: DemoOptions) {
    this.worker = new Worker(url, { workerData: options });
    const push = (m: WorkerMessage) => {
      this.queue.push(m);
      this.wake?.();
      this.wake = null;
    };
    this.worker.on('message', push);
    this.worker.on('error', (error) => push({ error: error.message }));
    this.worker.on('exit', (code) => {
      if (code !== 0) push({ error: `поток демо-данных завершился с кодом ${code}` });
    });
  }

  private async next(): Promise<WorkerMessage> {
    while (this.queue.length === 0) await new Promise<void>((done) => (this.wake = done));
    return this.queue.shift()!;
  }

  /** Project p's lists; `onDays` gets the calendar days each chunk covered. */
  async *project(p: number, onDays: (days: number) => void): AsyncGenerator<Snapshot> {
    for (;;) {
      const chunk = await this.next();
      if ('error' in chunk) throw new Error(`демо-данные: ${chunk.error}`);
      if (chunk.project !== p) throw new Error(`демо-данные: проект ${chunk.project} вместо ${p}`);
      this.worker.postMessage('more');
      onDays(chunk.days);
      yield* this.decoder.decode(chunk);
      if (chunk.last) return;
    }
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** The worker's compiled script (dist/src/demo/worker.js); none when running from the sources (tests). */
function workerUrl(): URL | null {
  return import.meta.url.endsWith('.js') ? new URL('demo/worker.js', SRC_ROOT) : null;
}

/**
 * Generates the demo market and imports it through the same path as real data (validation, then one
 * transaction per project), creates the demo account, and marks the database as holding demo data. The
 * lists are made and validated on a worker thread when the compiled worker is there, else in this one.
 */
export async function runDemo(
  db: Db,
  importer: Importer,
  options: Partial<DemoOptions> = {},
  onProgress?: (p: DemoProgress) => void,
): Promise<{ projects: number; snapshots: number }> {
  const demo: DemoOptions = { until: options.until ?? todayIso(), ...options };
  const plan = planDemo(demo);
  for (const name of plan.developers) await ensureDeveloper(db, name);
  const total = plan.days.length * plan.projects.length;
  let done = 0;
  const progressed = (days: number) => {
    const before = done;
    done += days;
    if (Math.floor(done / 200) > Math.floor(before / 200)) onProgress?.({ done, total });
  };
  const url = workerUrl();
  const worker = url ? new WorkerLists(url, demo) : null;
  const load = async () => {
    for (let p = 0; p < plan.projects.length; p++) {
      const project = plan.projects[p];
      async function* here() {
        for (const list of demoLists(plan, p)) {
          progressed(1);
          if (list) yield list;
        }
      }
      // one transaction per project: the demo is loaded whole or not at all, project by project
      await importer.applyProjectBatch(
        project.developer,
        project.name,
        worker ? worker.project(p, progressed) : here(),
      );
    }
  };
  try {
    // into an empty database, the timeline's secondary indexes are built once after the load
    if ((await countProjects(db)) === 0) await withIndexesDeferred(db, load);
    else await load();
  } finally {
    await worker?.close();
  }
  onProgress?.({ done: total, total });
  if (!(await getUserByName(db, DEMO_USER.username)))
    await addUser(db, DEMO_USER.username, DEMO_USER.password);
  await markDemoData(db, true);
  // the registry's objects of the demo's projects, through the registry's one door
  await applyRegistryImport(commandHost(db, importer), demoRegistryAnswers(plan, demo.until), {
    id: null,
    name: 'демо',
    address: null,
  });
  // what follows every import (the tables' statistics after this bulk load among it)
  // (the demo's load counts as a bulk load whatever its flats: its tables are small, their statistics cheap)
  await followImport(commandHost(db, importer), { lists: done, flats: Number.POSITIVE_INFINITY });
  return { projects: plan.projects.length, snapshots: done };
}
