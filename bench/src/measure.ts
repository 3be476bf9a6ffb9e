import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export interface Row {
  what: string;
  value: string;
  budget?: string;
  ok?: boolean;
}

export function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [
    r.what,
    r.value,
    r.budget ?? '',
    r.ok === undefined ? '' : r.ok ? 'ok' : 'OVER',
  ]);
  const head = ['measure', 'value', 'budget', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${line(head)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const c of cells) process.stdout.write(`${line(c)}\n`);
}

export interface ChildRun {
  code: number | null;
  ms: number;
  peakMb: number;
  stdout: string;
  stderr: string;
}

/** Runs a node script in a child process and reports its wall time and peak resident memory. */
export function runNode(script: string, args: string[], workDir: string, env: NodeJS.ProcessEnv = {}) {
  const preload = join(workDir, 'maxrss.cjs');
  const rssFile = join(workDir, `maxrss-${process.pid}-${Date.now()}.txt`);
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  return new Promise<ChildRun>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env, NODE_OPTIONS: `--require ${preload}`, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let peakMb = Number.NaN;
      try {
        peakMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
        rmSync(rssFile);
      } catch {}
      resolve({ code, ms, peakMb, stdout, stderr });
    });
  });
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The server's bin, run as `npx cena-metra` runs it (with its shebang's node flags). */
export const BIN = join(ROOT, 'packages/server/bin/cena-metra.js');

/** Writes a run's figures as bench/results/<name> (BENCH_RESULTS_DIR elsewhere, e.g. for the smoke test). */
export function writeResults(name: string, report: object): void {
  const dir = process.env.BENCH_RESULTS_DIR || join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `${JSON.stringify(report, null, 2)}\n`);
}

/** Resident memory of a process now (Linux VmRSS), in MB. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/**
 * `cena-metra serve --port 0` in its own process (its heap is the server's alone, as in production),
 * resolved with its origin once it prints the address; stop() ends it with SIGTERM.
 */
export function startServer(env: NodeJS.ProcessEnv) {
  const server = spawn(BIN, ['serve', '--port', '0'], {
    env: { ...process.env, LOG_LEVEL: 'warn', TELEGRAM_BOT_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((done) => server.on('exit', done));
    server.kill('SIGTERM');
    await exited;
  };
  const origin = new Promise<string>((done, fail) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /Цена метра: (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) done(m[1]!);
    });
    server.on('exit', (code) => fail(new Error(`serve exited with ${code}`)));
  });
  return { pid: server.pid!, origin, stop };
}
