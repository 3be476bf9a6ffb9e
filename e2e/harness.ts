import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = join(ROOT, 'e2e/artifacts');
const BIN = join(ROOT, 'packages/server/bin/cena-metra.js');

/** The bot token the e2e server checks Telegram WebApp data with (no bot is contacted). */
export const E2E_BOT_TOKEN = '100200:e2e-test-token';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

export interface Product {
  url: string;
  dataDir: string;
  /** ends the server; its data dir removed unless `keep` */
  stop(keep?: boolean): Promise<void>;
}

/** `cena-metra serve` on a fresh data dir: the first start generates the demo market and the demo account. */
export async function startProduct(
  env: Record<string, string> = {},
  /** a data dir a stopped product kept (its demo already made): the next start is quick */
  reuse?: string,
): Promise<Product> {
  const dataDir = reuse ?? mkdtempSync(join(tmpdir(), 'cena-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', '0'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      TELEGRAM_CHANNEL_URL: 'https://t.me/cena_metra',
      TELEGRAM_BOT_TOKEN: E2E_BOT_TOKEN,
      // the bot starts with the token: it talks to nothing (a closed local port), the web app is what is tested
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      // the feed a test serves on this machine, allowed as an operator allows an intranet host (§11.5)
      COLLECT_ALLOW_HOSTS: '127.0.0.1:*',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((ready, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /http:\/\/[\d.]+:\d+/.exec(out);
      if (match) ready(match[0]);
    });
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    dataDir,
    async stop(keep = false) {
      const exited = new Promise((done) => child.on('exit', done));
      child.kill('SIGTERM');
      await exited;
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs the demo account in through the login page, as a person does, and waits for the dashboard. */
export async function signInDemo(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.fill('input[name=username]', 'demo');
  await page.fill('input[name=password]', 'demo');
  await page.click('button[type=submit]');
  await page.waitForURL(`${url}/`);
}
