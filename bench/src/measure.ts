import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
