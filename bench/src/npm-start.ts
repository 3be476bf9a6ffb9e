/**
 * The first five minutes (issue «first five minutes», DESIGN §11): `npm start` as a new user runs it, until
 * `/api/health` answers — first on an empty data dir with the web app to build (the contract and the
 * server are built by `npm install`'s prepare step), demo generation included; then again on the unchanged
 * checkout, which builds nothing and opens the database.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from './measure.js';

function npmStart(root: string, dataDir: string): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    // its own process group: npm, the shell and the server are stopped together
    const child = spawn('npm', ['start'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        DATABASE_URL: '',
        LOG_LEVEL: 'silent',
        TELEGRAM_BOT_TOKEN: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let finished = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', async (d) => {
      out += d;
      const url = /Цена метра: (http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (!url || finished) return;
      const health = await fetch(`${url}/api/health`).catch(() => null);
      if (health?.status !== 200 || finished) return;
      finished = true;
      const ms = performance.now() - started;
      child.on('close', () => done(ms));
      process.kill(-child.pid!, 'SIGTERM');
    });
    child.on('close', (code) => {
      if (!finished) fail(new Error(`npm start exited with ${code}: ${err.slice(-2000)}`));
    });
  });
}

export async function npmStartBench(root: string, work: string, rows: Row[], note: (s: string) => void) {
  const dataDir = join(work, 'npm-start');
  rmSync(dataDir, { recursive: true, force: true });
  // what a fresh clone has after `npm install`: the contract and the server built, the web app not
  rmSync(join(root, 'packages/web/dist/.build-stamp'), { force: true });
  note('npm start: первый запуск (сборка веб-приложения и демо-данные)…');
  const first = await npmStart(root, dataDir);
  rows.push({
    what: '`npm start` after `npm install` on an empty data dir (web app build and demo included) until /api/health answers',
    value: `${(first / 1000).toFixed(1)} s`,
    budget: '≤ 45 s',
    ok: first <= 45_000,
  });
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push(await npmStart(root, dataDir));
  const median = [...times].sort((a, b) => a - b)[1];
  rows.push({
    what: '`npm start` again on the unchanged checkout until /api/health answers (median of 3)',
    value: `${(median / 1000).toFixed(1)} s (${times.map((t) => (t / 1000).toFixed(1)).join(' / ')})`,
    budget: '≤ 3 s',
    ok: median <= 3_000,
  });
  rmSync(dataDir, { recursive: true, force: true });
}
