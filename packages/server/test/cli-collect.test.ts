import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/driver.js';

// the feeds these tests collect are served on this machine: allowed as an operator allows an intranet
// host (DESIGN §11.5; test/collect-guard.test.ts holds the refusals)
process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';

// `cena-metra source …`, `collect`, `reparse` (DESIGN §10.8) as a user runs them, against a loopback server.

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/cena-metra.js');
const FEED = readFileSync(new URL('./fixtures/yrl/feed.xml', import.meta.url));

/** The CLI in a child process, asynchronously: this process must keep serving the feed meanwhile. */
function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', dataDir, ...args],
      { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' }, timeout: 60_000 },
      (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('cena-metra source / collect / reparse', () => {
  let server: Server;
  let base = '';
  let work = '';
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cena-collect-cli-'));
    server = createServer((req, res) => {
      if (req.url === '/feed.xml') res.writeHead(200, { 'content-type': 'application/xml' }).end(FEED);
      else res.writeHead(503).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(work, { recursive: true, force: true });
  });

  it('adds sources, collects them, lists their last run, reparses; bad input is exit 2 naming the field', async () => {
    const dir = join(work, 'data');
    const add = await cli(
      dir,
      '--json',
      'source',
      'add',
      'Пионер',
      '--kind',
      'yrl',
      '--url',
      `${base}/feed.xml`,
    );
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)[0]).toMatchObject({ источник: 'Пионер', вид: 'yrl' });
    const down = await cli(
      dir,
      'source',
      'add',
      'Лежит',
      '--kind',
      'json',
      '--url',
      `${base}/down.json`,
      '--header',
      'X-Key: 1',
    );
    expect(down.code, down.stderr).toBe(0);

    const badKind = await cli(dir, 'source', 'add', 'X', '--kind', 'xls', '--url', base);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('kind: допустимо pik-api, yrl, json, ndjson, csv');
    const badHeader = await cli(
      dir,
      'source',
      'add',
      'Y',
      '--kind',
      'yrl',
      '--url',
      base,
      '--header',
      'oops',
    );
    expect(badHeader.code).toBe(2);
    expect(badHeader.stderr).toContain('--header');
    const twice = await cli(dir, 'source', 'add', 'пионер', '--kind', 'yrl', '--url', base);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('уже есть');

    // one source works, one is down: the run says which, and the exit code is 1
    const collect = await cli(dir, '--json', 'collect', '--date', '2026-11-20');
    expect(collect.code).toBe(1);
    expect(collect.stderr).toContain('не собрано источников: 1');
    const rows = JSON.parse(collect.stdout) as {
      источник: string;
      итог: string;
      квартир: number;
      ошибка: string;
    }[];
    expect(rows.map((r) => [r.источник, r.итог, r.квартир])).toEqual([
      ['Лежит', 'failed', 0],
      ['Пионер', 'done', 5],
    ]);
    expect(rows[0].ошибка).toContain('HTTP 503');

    // a disabled source is not collected
    expect((await cli(dir, 'source', 'disable', 'Лежит')).code).toBe(0);
    const again = await cli(dir, '--json', 'collect', '--date', '2026-11-21');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((r: { источник: string }) => r.источник)).toEqual(['Пионер']);

    const list = await cli(dir, '--json', 'source', 'list');
    const listed = JSON.parse(list.stdout) as {
      источник: string;
      включён: string;
      'последний сбор': string;
    }[];
    expect(listed.map((s) => [s.источник, s.включён, s['последний сбор']])).toEqual([
      ['Лежит', 'нет', '2026-11-20 failed'],
      ['Пионер', 'да', '2026-11-21 done'],
    ]);

    const reparse = await cli(dir, '--json', 'reparse', '--source', 'Пионер');
    expect(reparse.code, reparse.stderr).toBe(0);
    expect(JSON.parse(reparse.stdout)[0]).toMatchObject({
      дата: '2026-11-21',
      снимков: 2,
      статус: 'unchanged, unchanged',
    });

    const badDate = await cli(dir, 'collect', '--date', '2026-13-01');
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--date');
    const badUrl = await cli(dir, 'source', 'add', 'Z', '--kind', 'yrl', '--url', 'ftp://host/feed.xml');
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('url:');
    const unknown = await cli(dir, 'collect', '--source', 'Нет такого');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('источник «Нет такого» не найден');
    expect((await cli(dir, 'source', 'remove', 'Лежит')).code).toBe(0);
    expect(JSON.parse((await cli(dir, '--json', 'source', 'list')).stdout)).toHaveLength(1);
  }, 120_000);
});

describe('a collection killed midway', () => {
  it('leaves the day absent and its run «running»; the next collection marks it interrupted and completes the day', async () => {
    const { spawn } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'cena-collect-kill-'));
    let stall = true;
    let asked = 0;
    const server = createServer((_req, res) => {
      asked++;
      if (!stall) return void res.writeHead(200).end(FEED);
      // half the feed, then nothing: the collector waits in the middle of the body
      res.writeHead(200, { 'content-length': String(FEED.length) });
      res.write(FEED.subarray(0, FEED.length >> 1));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
    try {
      const dir = join(work, 'data');
      expect((await cli(dir, 'source', 'add', 'Фид', '--kind', 'yrl', '--url', url)).code).toBe(0);
      const child = spawn(process.execPath, [BIN, '--data-dir', dir, 'collect', '--date', '2026-11-20'], {
        // its temporary files in the test's dir: the killed process cannot remove them itself
        env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', TMPDIR: work },
        stdio: 'ignore',
      });
      const exited = new Promise((r) => child.once('exit', r));
      while (asked === 0) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGKILL');
      await exited;
      server.closeAllConnections();

      // the run is left «running», the day has no snapshot
      const during = await cli(dir, '--json', 'source', 'list');
      expect(JSON.parse(during.stdout)[0]['последний сбор']).toBe('2026-11-20 running');
      expect((await cli(dir, 'quality', '1')).stderr).toContain('не найден');

      stall = false;
      const again = await cli(dir, '--json', 'collect', '--date', '2026-11-20');
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)[0]).toMatchObject({ итог: 'done', снимков: 2, квартир: 5 });
      const quality = await cli(dir, '--json', 'quality', '1');
      expect(JSON.parse(quality.stdout).snapshots).toMatchObject({ count: 1, first: '2026-11-20' });
      const runs = await cli(dir, '--json', 'source', 'list');
      expect(JSON.parse(runs.stdout)[0]['последний сбор']).toBe('2026-11-20 done');
      const db = await openDb({ dataDir: dir });
      try {
        const rows = await db.query<{ status: string }>('select status from source_run order by id');
        expect(rows.map((r) => r.status)).toEqual(['interrupted', 'done']);
      } finally {
        await db.close();
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
