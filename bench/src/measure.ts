import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import type { LeanRun } from './lean-client.js';

/**
 * A numeric option of a bench command (`--flats 5000`), or its default. Anything but a whole number > 0
 * ends the command with one clear line and exit code 2, as the CLI does for bad input.
 */
export function numberOption(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) {
    process.stderr.write(
      `ошибка: --${name}: ожидается целое число больше 0, получено «${argv[i + 1] ?? ''}»\n`,
    );
    process.exit(2);
  }
  return value;
}

/**
 * The PostgreSQL database a bench run works in: `existing` as it is (kept), or a fresh one created on the
 * server of `base` (dropped by `close` unless kept).
 */
export async function benchDatabase(base: string, prefix: string, existing = false) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const url = new URL(base);
  if (!existing) {
    await admin.query(`create database ${name}`);
    url.pathname = `/${name}`;
  }
  return {
    name: existing ? url.pathname.slice(1) : name,
    url: url.toString(),
    close: async (keep = false) => {
      if (!existing && !keep) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

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

/** What a run of a bench tool says of itself: where it ran, on which code. */
export interface RunInfo {
  date: string;
  node: string;
  commit: string;
  machine: string;
}

/** The checkout's commit (`+` when the working tree differs from it), and the machine's kind. */
export function runInfo(): RunInfo {
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('rev-parse', '--short=10', 'HEAD') || 'unknown';
  // the figures of the last run, kept in bench/results, are no change of the code
  const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results') !== '';
  const cpu = cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    commit: dirty ? `${commit}+` : commit,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}`,
  };
}

const UNITS: Record<string, 1 | -1> = { ms: 1, s: 1, MB: 1, KB: 1, GB: 1, 'req/s': -1 };

/**
 * How a value moved against the previous run's: the change of its leading number in % when both carry the
 * same unit, and whether that is worse (more time or memory, fewer requests a second) by over 10 %.
 */
export function versus(
  value: string,
  previous: string | undefined,
): { change: number; worse: boolean } | null {
  const read = (v: string) => {
    const m = /^([\d.,]+)\s*(ms|s|MB|KB|GB|req\/s)\b/.exec(v.replace(/(\d),(\d{3})/g, '$1$2'));
    return m ? { n: Number(m[1]), unit: m[2] } : null;
  };
  const a = read(value);
  const b = previous === undefined ? null : read(previous);
  if (!a || !b || a.unit !== b.unit || b.n === 0) return null;
  const change = ((a.n - b.n) / b.n) * 100;
  return { change, worse: change * UNITS[a.unit] > 10 };
}

export function printTable(rows: Row[], previous?: Row[]): void {
  const before = new Map(previous?.map((r) => [r.what, r.value]));
  const cells = rows.map((r) => {
    const was = before.get(r.what);
    const moved = versus(r.value, was);
    return [
      r.what,
      r.value,
      was === undefined
        ? ''
        : moved
          ? `${was} (${moved.change >= 0 ? '+' : ''}${moved.change.toFixed(0)} %${moved.worse ? ' ▲' : ''})`
          : was,
      r.budget ?? '',
      r.ok === undefined ? '' : r.ok ? 'ok' : 'OVER',
    ];
  });
  const head = ['measure', 'value', previous ? 'previous run' : '', 'budget', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${line(head)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const c of cells) process.stdout.write(`${line(c)}\n`);
}

/**
 * Ends a run of a bench tool: its table beside the previous run's figures (bench/results/<name>, a change
 * of over 10 % for the worse marked ▲), where and on which commit it ran, and its report written over the
 * previous one (which it names). Exit code 1 when a budget is missed.
 */
export function reportRun(name: string, rows: Row[], extra: object = {}): void {
  const dir = process.env.BENCH_RESULTS_DIR || join(ROOT, 'bench/results');
  let previous: (RunInfo & { rows: Row[] }) | null = null;
  try {
    previous = JSON.parse(readFileSync(join(dir, name), 'utf8')) as RunInfo & { rows: Row[] };
  } catch {}
  const info = runInfo();
  process.stdout.write(`commit ${info.commit} · ${info.machine} · node ${info.node}\n`);
  if (previous)
    process.stdout.write(
      `previous run: ${previous.date?.slice(0, 16).replace('T', ' ') ?? '?'} · commit ${previous.commit ?? '?'} · ${previous.machine ?? 'machine not recorded'}\n`,
    );
  process.stdout.write('\n');
  printTable(rows, previous?.rows);
  const worse = previous
    ? rows.filter((r) => versus(r.value, previous!.rows.find((p) => p.what === r.what)?.value)?.worse)
    : [];
  if (worse.length) process.stdout.write(`\n▲ slower than the previous run by over 10 %: ${worse.length}\n`);
  writeResults(name, {
    ...info,
    ...extra,
    previous: previous ? { date: previous.date, commit: previous.commit ?? null } : null,
    rows,
  });
  if (rows.some((r) => r.ok === false)) process.exitCode = 1;
}

export interface ChildRun {
  code: number | null;
  ms: number;
  peakMb: number;
  stdout: string;
  stderr: string;
}

/** Runs a node script in a child process and reports its wall time and peak resident memory. */
export function runNode(
  script: string,
  args: string[],
  workDir: string,
  env: NodeJS.ProcessEnv = {},
  /** run the script itself (its shebang's node flags apply, as for `npx cena-metra`) */
  asUserRunsIt = false,
) {
  const preload = join(workDir, 'maxrss.cjs');
  const rssFile = join(workDir, `maxrss-${process.pid}-${Date.now()}.txt`);
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  return new Promise<ChildRun>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(asUserRunsIt ? script : process.execPath, asUserRunsIt ? args : [script, ...args], {
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

/** Signs in through the API of `origin` (http://host:port) and returns the session (token, username). */
export async function signIn(
  origin: string,
  username = 'demo',
  password = 'demo',
): Promise<{ username: string; token: string }> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username}: HTTP ${res.status}`);
  return (await res.json()) as { username: string; token: string };
}

/**
 * A signed-in API client that times each call: request sent → the whole body received (identity: the
 * server's whole work, no compression; decoding is the client's business). A status other than 200 throws.
 */
export function timedApi(origin: string, token: string) {
  return async (
    method: 'GET' | 'POST',
    path: string,
    body?: object,
  ): Promise<{ ms: number; text: string }> => {
    const started = performance.now();
    const res = await fetch(`${origin}/api${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'accept-encoding': 'identity',
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}: ${bytes.toString().slice(0, 200)}`);
    return { ms: elapsed, text: bytes.toString('utf8') };
  };
}

/**
 * The API's latency: request sent → last byte of the (gzip) body received, on one kept-alive connection,
 * as `npm run bench` times it (`timedApi` above takes each body whole, uncompressed, on a new request). Inflating 3 MB of JSON is the client's work (~10 ms here); every 5th stats
 * body is inflated and parsed, so the bytes are checked to be the response.
 */
export function timedKeptAlive(
  api: string,
  headers: Record<string, string>,
  encoding: 'gzip' | 'identity' = 'gzip',
  /** every how many stats bodies one is inflated and parsed (after its time is taken) */
  check = 5,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let checked = 0;
  const timed = (path: string, body?: unknown) =>
    new Promise<number>((done, fail) => {
      const payload = body ? JSON.stringify(body) : undefined;
      const started = performance.now();
      const req = http.request(
        `${api}${path}`,
        { method: body ? 'POST' : 'GET', agent, headers: { ...headers, 'accept-encoding': encoding } },
        (res) => {
          // the bytes of a body that is not checked are dropped as they come (as autocannon and
          // `curl -o /dev/null` do): holding every 3.3 MB body made this process's collector part of the time
          const checking = path === '/project/stats' && checked++ % check === 0;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => {
            if (checking || res.statusCode !== 200) chunks.push(c);
          });
          res.on('end', () => {
            const elapsed = performance.now() - started;
            if (res.statusCode !== 200)
              return fail(
                new Error(
                  `${path}: HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`,
                ),
              );
            if (checking) {
              const raw = Buffer.concat(chunks);
              const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
              if (!(JSON.parse(text) as { allRoomsData?: unknown }).allRoomsData)
                return fail(new Error(`${path}: not a stats response`));
            }
            done(elapsed);
          });
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
  return { timed, agent };
}

/** Times `run`'s requests from a client process of its own (lean-client.ts), in ms each. */
export function leanClient(run: LeanRun): Promise<number[]> {
  return new Promise((done, fail) => {
    const script = fileURLToPath(new URL('./lean-client.js', import.meta.url));
    const child = execFile(process.execPath, [script], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return fail(new Error(`lean client: ${stderr || error.message}`));
      done(JSON.parse(stdout) as number[]);
    });
    child.stdin!.end(JSON.stringify(run));
  });
}

/** Bytes of a directory tree (a PGlite data dir). */
export function dirBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    total += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}
