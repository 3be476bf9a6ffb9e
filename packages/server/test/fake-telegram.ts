import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../src/db/driver.js';
import { migrate } from '../src/db/migrate.js';
import { type DbKind, freshDb } from './databases.js';

/** One call the bot made to the Bot API. */
export interface ApiCall {
  method: string;
  body: Record<string, unknown>;
}

/** What a handler answers: a Bot API result, an error, or no answer at all (the request hangs). */
export type Answer =
  | { result: unknown }
  | { error_code: number; description: string; retry_after?: number }
  | 'hang';

export type Handler = (call: ApiCall, index: number) => Answer | undefined;

/**
 * A local Bot API server (grammY's `apiRoot` points here): a real HTTP server answering getMe,
 * getUpdates (long polling from a queue), sendMessage and the rest, and recording every call. A test
 * may answer any call itself (429s, blocked chats, a request that never returns).
 */
export class FakeTelegram {
  readonly calls: ApiCall[] = [];
  /** sendMessage calls Telegram accepted (answered ok). */
  readonly delivered: ApiCall[] = [];
  handler: Handler | null = null;
  url = '';
  private server: Server | null = null;
  private readonly updates: Record<string, unknown>[] = [];
  private nextUpdate = 1;
  private nextMessage = 1;
  private readonly hanging = new Set<ServerResponse>();
  private waiters: (() => void)[] = [];
  private callWaiters: { test: () => boolean; done: () => void }[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.wake();
    this.server?.closeAllConnections();
    await new Promise((done) => this.server?.close(done));
  }

  /** Queues a text message from a user (chat type private unless given) for getUpdates. */
  userSays(chatId: number, text: string, chatType = 'private'): number {
    const id = this.nextUpdate++;
    const entities = text.startsWith('/')
      ? [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }]
      : undefined;
    this.updates.push({
      update_id: id,
      message: {
        message_id: id,
        date: Math.floor(Date.now() / 1000),
        chat:
          chatType === 'private'
            ? { id: chatId, type: 'private', first_name: 'Анна' }
            : { id: chatId, type: chatType, title: 'Группа' },
        from: { id: Math.abs(chatId), is_bot: false, first_name: 'Анна' },
        text,
        entities,
      },
    });
    this.wake();
    return id;
  }

  /** The update a test hands to bot.handleUpdate directly. */
  messageUpdate(chatId: number, text: string, chatType = 'private') {
    this.userSays(chatId, text, chatType);
    return this.updates.pop()!;
  }

  /** Resolves once a recorded call passes the test (or rejects after ms). */
  waitFor(test: (calls: ApiCall[]) => boolean, ms = 10_000): Promise<void> {
    if (test(this.calls)) return Promise.resolve();
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no such Bot API call within ${ms} ms`)), ms);
      this.callWaiters.push({
        test: () => test(this.calls),
        done: () => {
          clearTimeout(timer);
          done();
        },
      });
    });
  }

  /** The texts sent to a chat, in order (those accepted from the `from`-th on). */
  textsTo(chatId: number | string, from = 0): string[] {
    return this.delivered
      .slice(from)
      .filter((c) => String(c.body.chat_id) === String(chatId))
      .map((c) => String(c.body.text));
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.url ?? '').split('/').pop() ?? '';
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const call = { method, body };
    this.calls.push(call);
    const custom = this.handler?.(call, this.calls.length - 1);
    for (const w of [...this.callWaiters])
      if (w.test()) {
        this.callWaiters.splice(this.callWaiters.indexOf(w), 1);
        w.done();
      }
    const answer = custom ?? (await this.standard(call));
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.setHeader('content-type', 'application/json');
    if ('result' in answer) {
      if (method === 'sendMessage') this.delivered.push(call);
      res.end(JSON.stringify({ ok: true, result: answer.result }));
    } else {
      res.statusCode = answer.error_code;
      res.end(
        JSON.stringify({
          ok: false,
          error_code: answer.error_code,
          description: answer.description,
          ...(answer.retry_after ? { parameters: { retry_after: answer.retry_after } } : {}),
        }),
      );
    }
  }

  private async standard(call: ApiCall): Promise<Answer> {
    switch (call.method) {
      case 'getMe':
        return { result: { id: 100200, is_bot: true, first_name: 'Цена метра', username: 'cena_metra_bot' } };
      case 'getUpdates': {
        const offset = Number(call.body.offset ?? 0);
        const pending = () => this.updates.filter((u) => (u.update_id as number) >= offset);
        if (pending().length === 0) {
          await new Promise<void>((done) => {
            const timer = setTimeout(done, 250);
            this.waiters.push(() => {
              clearTimeout(timer);
              done();
            });
          });
        }
        return { result: pending() };
      }
      case 'sendMessage': {
        const chatId = call.body.chat_id;
        return {
          result: {
            message_id: this.nextMessage++,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: Number(chatId) > 0 ? 'private' : 'channel' },
            text: call.body.text,
          },
        };
      }
      default:
        return { result: true };
    }
  }
}

const BIN = join(import.meta.dirname, '../bin/cena-metra.js');

/** `cena-metra bot --once` in a child process on the given database. */
export function botOnce(env: Record<string, string>, args: string[] = []): ChildProcess {
  return spawn(process.execPath, [BIN, ...args, 'bot', '--once', '--json'], {
    env: { ...process.env, LOG_LEVEL: 'silent', TELEGRAM_SETTLE_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((done) => child.on('exit', (code) => done({ code, stdout, stderr })));
}

/**
 * A database a test fills, then hands to `cena-metra bot --once` processes (`env`, `args`): a PGlite data
 * dir or a fresh PostgreSQL database. `handOver` closes the test's own handle (one process per PGlite data
 * dir); `drop` removes everything.
 */
export async function botDatabase(kind: DbKind, prefix: string) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const fresh = kind === 'postgresql' ? await freshDb('postgresql') : null;
  const db = fresh?.db ?? (await openDb({ dataDir }));
  if (!fresh) await migrate(db);
  return {
    db,
    env: fresh ? { DATABASE_URL: fresh.url! } : { DATABASE_URL: '' },
    args: fresh ? [] : ['--data-dir', dataDir],
    handOver: async () => {
      if (!fresh) await db.close();
    },
    drop: async () => {
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `bot --once`, killed with SIGKILL while the fake holds back its `nth` message unanswered. */
export async function killedWhileSending(
  fake: FakeTelegram,
  env: Record<string, string>,
  args: string[],
  nth: number,
): Promise<{ code: number | null }> {
  let sends = 0;
  fake.handler = (call) => (call.method === 'sendMessage' && ++sends === nth ? 'hang' : undefined);
  const child = botOnce(env, args);
  const exited = finished(child);
  await fake.waitFor(() => sends === nth);
  child.kill('SIGKILL');
  const result = await exited;
  fake.handler = null;
  return result;
}
