/**
 * The first request after a restart and after an import (issue «Warm from the first request», DESIGN
 * §11.1): the bench project served by `cena-metra serve` in a fresh process, each reader's first request
 * timed, three restarts (medians); then one more day imported through the API and each first request
 * timed again; and stats with every request computed (a different range each time, no body kept).
 */
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';
import { apiSnapshot, benchSnapshots } from './market.js';
import { leanClient, percentile, type Row, startServer } from './measure.js';

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
  const stats = (round: number, lastDay: string) => {
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
  const requests = (round: number, lastDay: string) =>
    [
      ...stats(round, lastDay),
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
      // the round's requests from a client of its own (lean-client.ts), signed in first as a browser is:
      // each reader's first request, one more day through the API, each reader's first request again
      const asked = (last: string) =>
        requests(round, last).map(([label, method, path, body]) => ({
          label,
          // the stats' answers are checked to be what was asked (after their time is taken)
          request: {
            method,
            path,
            ...(body ? { body } : {}),
            ...(path.startsWith('/project/stats')
              ? { expect: path.endsWith('columns') ? 'dates' : 'allRoomsData' }
              : {}),
          },
        }));
      const before = asked(lastDay);
      const day = extra[round]!;
      const after = asked(day.date);
      // in the last round, stats with every request computed (a different range each time, so no kept body
      // answers) right after the first requests: before the round of the market's spans that a server starts
      // 2 s after it listens, which would share the thread with them (their p50 is the reader's alone)
      const computed =
        round === ROUNDS - 1
          ? Array.from({ length: Math.min(60, o.days - 1) }, (_, i) => ({
              method: 'POST' as const,
              path: '/project/stats',
              body: { projectId: o.projectId, from: fromDay(toDay(firstDay) + i + 1), to: lastDay },
              ...(i === 0 ? { expect: 'allRoomsData' } : {}),
            }))
          : [];
      const times = await leanClient({
        origin,
        signIn: { username: 'bench', password: 'bench-password' },
        requests: [
          ...before.map((a) => a.request),
          ...computed,
          { method: 'POST', path: '/ingest/snapshots', body: day },
          ...after.map((a) => a.request),
        ],
      });
      // a form of the stats counts as first only when it was (the other form read the days before it)
      const firsts = (list: typeof before, at: number, when: 'restart' | 'import') =>
        list.forEach(({ label }, i) => {
          if (i === 0 || !label.startsWith('stats')) record(when, label, times[at + i]!);
        });
      firsts(before, 0, 'restart');
      const imported = before.length + computed.length;
      record('import', 'the import itself', times[imported]!);
      firsts(after, imported + 1, 'import');
      lastDay = day.date;
      if (computed.length) {
        // timed as the server answers, by a client of its own: kept-alive, uncompressed, the bodies' bytes
        // taken as they come, the first parsed
        const p50 = percentile(times.slice(before.length, imported), 50);
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
