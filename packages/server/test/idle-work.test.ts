import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { addUser } from '../src/auth/users.js';
import { loadConfig } from '../src/config.js';
import { IdleWork } from '../src/http/idle-work.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { StatsReader } from '../src/read/stats-reader.js';
import { describeEachDb } from './databases.js';

/** An idle signal the test opens and closes by hand. */
function gate() {
  let open = false;
  let waiters: (() => void)[] = [];
  return {
    idle: async () => {
      if (!open) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    set(value: boolean) {
      open = value;
      if (value) {
        for (const w of waiters) w();
        waiters = [];
      }
    },
  };
}

describe('IdleWork', () => {
  it('runs nothing until idle, then the newest first, each key once; a failure is reported and the rest go on', async () => {
    const g = gate();
    const done: string[] = [];
    const errors: string[] = [];
    const work = new IdleWork(g.idle, (error, key) => errors.push(`${key}: ${(error as Error).message}`), 3);
    for (const key of ['a', 'b', 'a', 'c', 'd', 'e']) work.add(key, async () => void done.push(key));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toEqual([]);
    // a re-added moved behind b; past three waiting the oldest went: c, d, e wait
    expect(work.size).toBe(3);
    work.add('boom', async () => {
      throw new Error('нет');
    });
    g.set(true);
    await work.settled();
    expect(done).toEqual(['e', 'd']);
    expect(errors).toEqual(['boom: нет']);
  });

  it('stops: what waits is dropped, nothing new is taken', async () => {
    const g = gate();
    const done: string[] = [];
    const work = new IdleWork(g.idle, () => {});
    work.add('a', async () => void done.push('a'));
    const stopped = work.stop();
    g.set(true);
    await stopped;
    work.add('b', async () => void done.push('b'));
    await work.settled();
    expect(done).toEqual([]);
    expect(work.size).toBe(0);
  });
});

describeEachDb('the other status made ahead', (ctx) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token = '';
  beforeAll(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ logLevel: 'silent' }, {}) });
    await addUser(ctx.db, 'analyst', 'secret-pass');
    const importer = new Importer(ctx.db, 2);
    for (const [date, status] of [
      ['2026-11-01', 'AVAILABLE'],
      ['2026-11-02', 'RESERVED'],
    ] as const)
      await importer.apply(
        validateSnapshot(
          {
            date,
            developer: 'Впрок',
            project: 'Заранее',
            flats: [
              { id: 'a', building: '1', rooms: 1, area: 40, price: 8_000_000, status },
              { id: 'b', building: '1', rooms: 2, area: 60, price: 12_000_000 },
            ],
          },
          { file: 't' },
        ),
      );
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'analyst', password: 'secret-pass' },
    });
    token = login.json().token;
  });
  afterAll(async () => app?.close());

  it('after the charts of «все», «только свободные» is made while the server is idle, and answers as if made then', async () => {
    const [project] = await ctx.db.query<{ id: number }>("select id from project where name = 'Заранее'");
    const made: string[] = [];
    const real = app.stats.statsResponse.bind(app.stats);
    app.stats.statsResponse = (db, request, ...rest) => {
      made.push(request.status);
      return real(db, request, ...rest);
    };
    const ask = (status: 'ALL' | 'AVAILABLE') =>
      app.inject({
        method: 'POST',
        url: '/api/project/stats',
        headers: { authorization: `Bearer ${token}` },
        payload: { projectId: project.id, from: '2026-11-01', to: '2026-11-03', status },
      });
    const all = await ask('ALL');
    expect(all.statusCode).toBe(200);
    // asked for «все» only; «только свободные» waits for a quiet moment
    expect(made).toEqual(['ALL']);
    await app.idleWork.settled();
    expect(made).toEqual(['ALL', 'AVAILABLE']);
    const available = await ask('AVAILABLE');
    // the answer is the one a fresh engine makes (the reserved lot left out on the 2nd)
    const fresh = await new StatsReader().statsResponse(
      ctx.db,
      { projectId: project.id, from: '2026-11-01', to: '2026-11-03', status: 'AVAILABLE' },
      null,
    );
    expect(available.body).toBe(fresh.body!.toString());
    expect(available.json()).not.toEqual(all.json());
  });
});
