import { readFileSync } from 'node:fs';
import type { Project, StatsResponse } from '@cena-metra/contract';
import autocannon from 'autocannon';
import { type Row, signIn } from './measure.js';

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function json<T>(base: string, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** The demo project with the most days × buildings over its full history, and its full-range request. */
export async function heaviestProject(base: string, token: string) {
  const today = new Date().toISOString().slice(0, 10);
  let best: { developerId: number; projectId: number; name: string; weight: number; body: object } | null =
    null;
  for (const d of await json<{ id: number }[]>(base, token, '/developers')) {
    for (const p of await json<Project[]>(base, token, `/projects?developerId=${d.id}`)) {
      // to its last list, dated in COLLECT_TZ: after Moscow's midnight a project may start on UTC's tomorrow
      const to = p.lastSnapshotDate && p.lastSnapshotDate > today ? p.lastSnapshotDate : today;
      const body = { projectId: p.id, from: p.minFlatCreatedAt ?? '2020-01-01', to };
      const stats = await json<StatsResponse>(base, token, '/project/stats', body);
      const weight =
        Object.keys(stats.allRoomsData.points.at(-1)?.avgMeterPriceByBuilding ?? {}).length *
        stats.allRoomsData.points.length;
      if (!best || weight > best.weight)
        best = { developerId: d.id, projectId: p.id, name: p.name, weight, body };
    }
  }
  return best!;
}

function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    autocannon(options, (error, result) => (error ? fail(error) : done(result)));
  });
}

/** autocannon, 10 connections × 10 s, against the running demo server; its peak RSS read from /proc. */
export async function apiLoadBench(
  base: string,
  serverPid: number,
  rows: Row[],
  note: (s: string) => void,
  at = '',
) {
  const { token } = await signIn(base);
  const cmdline = readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0').join(' ');
  note(`api: server ${cmdline.trim()}: peak RSS after start ${Math.round(peakRssMb(serverPid))} MB`);
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  const target = await heaviestProject(base, token);
  const runs = [
    { what: 'GET /api/developers', budget: 1500, options: { url: `${base}/api/developers`, headers } },
    {
      what: `POST /api/project/stats, full history of «${target.name}», gzip`,
      budget: 300,
      options: {
        url: `${base}/api/project/stats`,
        method: 'POST' as const,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(target.body),
      },
    },
  ];
  note(`api: peak RSS after filling the caches of every project ${Math.round(peakRssMb(serverPid))} MB`);
  for (const run of runs) {
    note(`api: autocannon ${run.what}…`);
    const result = await load({ ...run.options, connections: 10, duration: 10 });
    const rps = result.requests.average;
    const errors = result.errors + result.timeouts + result.non2xx;
    rows.push({
      what: `${run.what}: throughput (10 connections, 10 s)${at}`,
      value: `${Math.round(rps)} req/s, ${errors} errors, p50 ${result.latency.p50} ms`,
      budget: `≥ ${run.budget} req/s, 0 errors`,
      ok: rps >= run.budget && errors === 0,
    });
  }
  const peak = peakRssMb(serverPid);
  rows.push({
    what: `server peak RSS under that load (VmHWM)${at}`,
    value: `${Math.round(peak)} MB`,
    budget: '≤ 400 MB',
    ok: peak <= 400,
  });
}

/** Percentile of sorted numbers. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * Ten full price-changes CSV exports of the last `days` days at once, with /api/health asked every 50 ms
 * meanwhile (issue 13): every export whole, health answering within 100 ms, memory bounded.
 */
export async function exportLoadBench(
  base: string,
  serverPid: number,
  rows: Row[],
  note: (s: string) => void,
  at = '',
  days = 365,
) {
  const { token } = await signIn(base);
  const headers = { authorization: `Bearer ${token}` };
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const { total } = await json<{ total: number }>(
    base,
    token,
    `/price-changes?from=${from}&to=${to}&pageSize=1`,
  );
  note(`export: ten CSV exports of ${total} rows each at once, health asked every 50 ms…`);
  let running = true;
  const latencies: number[] = [];
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/api/health`)).text();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const started = performance.now();
  const sorts = ['-date', 'changePercent', '-newPrice'];
  const counts = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      const res = await fetch(`${base}/api/price-changes.csv?from=${from}&to=${to}&sort=${sorts[i % 3]}`, {
        headers,
      });
      if (!res.ok || !res.body) throw new Error(`export: HTTP ${res.status}`);
      let lines = 0;
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const c of decoder.decode(value, { stream: true })) if (c === '\n') lines++;
      }
      return lines - 1;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await probe;
  latencies.sort((a, b) => a - b);
  const whole = counts.every((n) => n === total);
  rows.push({
    what: `ten CSV exports of ${total} rows at once: every row of each${at}`,
    value: `${counts.filter((n) => n === total).length}/10 whole in ${seconds.toFixed(1)} s`,
    budget: 'all rows',
    ok: whole,
  });
  const p99 = percentile(latencies, 0.99);
  rows.push({
    what: `GET /api/health during those exports (${latencies.length} asked)${at}`,
    value: `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    budget: 'p99 ≤ 100 ms',
    ok: p99 <= 100,
  });
  const peak = peakRssMb(serverPid);
  rows.push({
    what: `server peak RSS after the exports (VmHWM)${at}`,
    value: `${Math.round(peak)} MB`,
    budget: '≤ 400 MB',
    ok: peak <= 400,
  });
}
