/**
 * The first request after a restart and after an import (issue «Warm from the first request», DESIGN
 * §11.1): the bench project served by `cena-metra serve` in a fresh process, each reader's first request
 * timed, three restarts (medians); then one more day imported through the API and each first request
 * timed again; and stats with every request computed (a different range each time, no body kept).
 */
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';
import { apiSnapshot, benchSnapshots } from './market.js';
import { leanClient, percentile, type Row, signIn, startServer, timedApi } from './measure.js';

export interface ColdOptions {
  /** the server's environment: DATA_DIR or DATABASE_URL of the loaded bench project */
  env: NodeJS.ProcessEnv;
  projectId: number;
  flats: number;
  days: number;
  start: string;
  seed: number;
  at: string;
}

const BUDGET = 100;

export async function coldBench(o: ColdOptions, rows: Row[], note: (s: string) => void): Promise<void> {
  const firstDay = o.start;
  let lastDay = fromDay(toDay(o.start) + o.days - 1);
  // the stats in both forms: the seed's (other clients) and the web's columns (§12.2); each is the first
  // request in half of the restarts (the other one then finds the project's days read)
  const stats = (round: number) => {
    const both = [
      ['stats', 'POST', '/project/stats', { projectId: o.projectId, from: firstDay, to: lastDay }],
      [
        'stats in columns (the web’s)',
        'POST',
        '/project/stats/columns',
        { projectId: o.projectId, from: firstDay, to: lastDay },
      ],
    ] as const;
    return round % 2 ? [both[1], both[0]] : both;
  };
  const requests = (round: number) =>
    [
      ...stats(round),
      ['pace', 'POST', '/project/pace', { projectId: o.projectId, from: firstDay, to: lastDay }],
      ['index', 'POST', '/project/index', { projectId: o.projectId, from: firstDay, to: lastDay }],
      ['distribution', 'POST', '/project/distribution', { projectId: o.projectId }],
      ['chess', 'GET', `/chess?projectId=${o.projectId}`, undefined],
    ] as const;
  const timesAfter: Record<'restart' | 'import', Map<string, number[]>> = {
    restart: new Map(),
    import: new Map(),
  };
  const record = (when: 'restart' | 'import', label: string, ms: number) =>
    timesAfter[when].set(label, [...(timesAfter[when].get(label) ?? []), ms]);

  const ROUNDS = 6;
  const next = benchSnapshots({ flats: o.flats, days: o.days + ROUNDS, start: o.start, seed: o.seed });
  const extra: ReturnType<typeof apiSnapshot>[] = [];
  let k = 0;
  for (const s of next) if (k++ >= o.days) extra.push(apiSnapshot(s));

  for (let round = 0; round < ROUNDS; round++) {
    note(`cold${o.at}: перезапуск ${round + 1}/${ROUNDS}…`);
    const server = startServer(o.env);
    try {
      const origin = await server.origin;
      const { token } = await signIn(origin, 'bench', 'bench-password');
      const api = timedApi(origin, token);
      const call = async (method: 'GET' | 'POST', path: string, body?: object) =>
        (await api(method, path, body)).ms;
      for (const [i, [label, method, path, body]] of requests(round).entries()) {
        const ms = await call(method, path, body);
        // a form of the stats counts as first only when it was (the other form read the days before it)
        if (i === 0 || !label.startsWith('stats')) record('restart', label, ms);
      }
      // one more day of the project through the API, then each reader's first request of the new data
      const t = performance.now();
      await call('POST', '/ingest/snapshots', extra[round]);
      record('import', 'the import itself', performance.now() - t);
      lastDay = extra[round]!.date;
      for (const [i, [label, method, path, body]] of requests(round).entries()) {
        const ms = await call(method, path, body);
        if (i === 0 || !label.startsWith('stats')) record('import', label, ms);
      }
      if (round === ROUNDS - 1) {
        // every request computed: a different range each time, so no kept body answers. Timed as the
        // server answers, by a client in a process of its own (lean-client.ts): kept-alive, uncompressed,
        // the bodies' bytes taken as they come, the first parsed
        const bodies = Array.from({ length: Math.min(60, o.days - 1) }, (_, i) => ({
          projectId: o.projectId,
          from: fromDay(toDay(firstDay) + i + 1),
          to: lastDay,
        }));
        const computed = await leanClient(origin, token, '/project/stats', bodies);
        const p50 = percentile(computed, 50);
        rows.push({
          what: `stats via API, full range, every request computed: p50${o.at}`,
          value: `${p50.toFixed(1)} ms`,
          budget: '≤ 10 ms',
          ok: p50 <= 10,
        });
      }
    } finally {
      await server.stop();
    }
  }
  for (const when of ['restart', 'import'] as const)
    for (const [label, times] of timesAfter[when]) {
      const median = percentile(times, 50);
      const budgeted = label !== 'the import itself';
      rows.push({
        what: budgeted
          ? `${label}: first request after ${when === 'restart' ? 'a restart' : 'an import'} (median of ${times.length})${o.at}`
          : `one more day of the project through POST /api/ingest/snapshots (median of ${times.length})${o.at}`,
        value: `${median.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(' / ')})`,
        ...(budgeted ? { budget: `≤ ${BUDGET} ms`, ok: median <= BUDGET } : {}),
      });
    }
}
