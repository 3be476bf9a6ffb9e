import { expect, it } from 'vitest';
import type { Db } from '../src/db/driver.js';
import { Importer } from '../src/ingest/importer.js';
import { validateSnapshot } from '../src/ingest/snapshot.js';
import { HedonicReader } from '../src/read/hedonic-reader.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';

// The market's list of projects (read/market-projects.ts) read once per version of the projects' data, places
// and classes — and once when its readers ask for it together («Рынок»'s ranking, map, pace and index at once).

/** The database, counting the statements that read the market's list of projects. */
function counted(db: Db): { db: Db; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (sql: string, params?: unknown[]) => {
          if (/join developer d on d\.id = p\.developer_id/.test(sql)) reads++;
          return target.query(sql, params);
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, reads: () => reads };
}

describeEachDb('the market’s list of projects', (ctx) => {
  const list = (date: string, project: string, price: number) =>
    validateSnapshot(
      snap(date, 'Застройщик', project, [flat('a', 1, 40, price), flat('b', 2, 60, price * 1.4)]),
      { file: 'list', at: project },
    );

  it('is read once by readers that ask together, and again once after a change', async () => {
    const importer = new Importer(ctx.db, 2);
    await importer.applyProjectBatch('Застройщик', 'Первый', [list('2026-11-20', 'Первый', 9_000_000)]);
    await importer.applyProjectBatch('Застройщик', 'Второй', [list('2026-11-20', 'Второй', 7_000_000)]);
    const cache = new ReadCache();
    const { db, reads } = counted(ctx.db);
    const market = new MarketReader(cache);
    const other = new MarketReader(cache);
    const hedonic = new HedonicReader(cache);
    const period = { from: '2026-11-01', to: '2026-11-30', rooms: 'all' as const };
    const together = () =>
      Promise.all([market.projects(db), other.projects(db), hedonic.index(db, period), market.projects(db)]);
    const [a, b, , c] = await together();
    expect(reads()).toBe(1);
    expect(a.map((p) => p.name)).toEqual(['Первый', 'Второй']);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // held while nothing changed
    await together();
    expect(reads()).toBe(1);
    // a new day of one project: read again, once
    await importer.applyProjectBatch('Застройщик', 'Первый', [list('2026-11-21', 'Первый', 9_100_000)]);
    const [d, e] = await together();
    expect(reads()).toBe(2);
    expect(e).toEqual(d);
    expect(d[0].data_version).toBeGreaterThan(a[0].data_version);
    // projects' pages opened meanwhile (values past the whole cache's budget) do not push it out: the list
    // has a share of the cache of its own
    const small = new ReadCache(8 << 20);
    const paged = new HedonicReader(small);
    await paged.index(db, period);
    expect(reads()).toBe(3);
    for (let i = 0; i < 16; i++) small.set(`stats:${i}`, 1, i, () => 1 << 20);
    await paged.index(db, { ...period, from: '2026-10-01' });
    expect(reads()).toBe(3);
  });
});
