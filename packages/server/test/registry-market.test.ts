import { expect, it } from 'vitest';
import { lightHistory, type SalesMonth, shiftsOf } from '../src/analytics/registry.js';
import type { Db } from '../src/db/driver.js';
import { decodeHistory } from '../src/db/kept-history.js';
import { createRandom } from '../src/demo/random.js';
import { keepRegistryKept } from '../src/derive/registry.js';
import { Importer } from '../src/ingest/importer.js';
import { fromDay, toDay } from '../src/lib/days.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { registrySales } from '../src/read/registry-sales.js';
import { readAnswer } from '../src/registry/answers.js';
import type { SavedAnswer } from '../src/registry/files.js';
import { stateOf } from '../src/registry/state.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyRegistryImport, rebuildRegistry } from '../src/use-cases/registry.js';
import { describeEachDb } from './databases.js';

// Issue 44's proof: a generated registry of 200 objects over 400 days — completions moved later and earlier,
// sales with corrections, objects appearing and finishing, one ЖК's two corpora spelt two ways, spellings
// mixed — imported through the one door; each figure equal to a straightforward recomputation from the
// plan written here, on both databases; `rebuild` and another order of the days give the same bytes.

const START = toDay('2025-01-01');
const SPAN = 400;
const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'];
const ROMAN = ['I', 'II', 'III', 'IV'];

interface PlannedObject {
  objId: number;
  name: string;
  flats: number;
  /** the first and last registry day it is listed */
  from: number;
  to: number;
  /** on each registry day it is listed: its declared completion and its realised flats */
  ready: Map<number, string>;
  realised: Map<number, number>;
}

const quarterEnd = (y: number, q: number) => `${y}-${QUARTER_ENDS[q]}`;
const movedQuarters = (day: string, by: number) => {
  const y = Number(day.slice(0, 4));
  const q = QUARTER_ENDS.indexOf(day.slice(5)) + by;
  return quarterEnd(y + Math.floor(q / 4), ((q % 4) + 4) % 4);
};

function plan(seed: number) {
  const r = createRandom(seed);
  const days = [...new Set(Array.from({ length: 28 }, () => START + r.int(0, SPAN - 1)))].sort(
    (a, b) => a - b,
  );
  const objects: PlannedObject[] = [];
  for (let i = 0; i < 200; i++) {
    const from = r.int(0, days.length - 3);
    const to = r.chance(0.2) ? r.int(from + 1, days.length - 1) : days.length - 1;
    const flats = r.int(40, 600);
    let ready = quarterEnd(2026 + r.int(0, 2), r.int(0, 3));
    let realised = r.int(0, flats / 3);
    const o: PlannedObject = {
      objId: 5000 + i,
      // objects 0 and 1: two corpora of one ЖК, spelt two ways
      name: i === 0 ? 'ЖК «Озёрный парк»' : i === 1 ? 'Озерный парк' : `Объект ${i}`,
      flats,
      from,
      to,
      ready: new Map(),
      realised: new Map(),
    };
    for (let k = from; k <= to; k++) {
      if (k > from && r.chance(0.06)) ready = movedQuarters(ready, r.chance(0.75) ? r.int(1, 2) : -1);
      if (k > from)
        realised = Math.min(flats, Math.max(0, realised + (r.chance(0.08) ? -r.int(1, 3) : r.int(0, 12))));
      o.ready.set(days[k], ready);
      o.realised.set(days[k], realised);
    }
    objects.push(o);
  }
  return { days, objects };
}

/** The registry's answers of the plan: a list a day, each object's detail and sales, spellings mixed. */
function answersOf(p: ReturnType<typeof plan>, dayIndexes: number[]): SavedAnswer[] {
  const out: SavedAnswer[] = [];
  for (const k of dayIndexes) {
    const d = p.days[k];
    const day = fromDay(d);
    const listed = p.objects.filter((o) => o.from <= k && k <= o.to);
    const list = {
      data: {
        total: listed.length,
        list: listed.map((o) => {
          const ready = o.ready.get(d)!;
          const q = QUARTER_ENDS.indexOf(ready.slice(5));
          const spelt =
            o.objId % 3 === 0
              ? `${ROMAN[q]} кв. ${ready.slice(0, 4)}`
              : o.objId % 3 === 1
                ? `${ready}T00:00:00`
                : `${ready.slice(8)}.${ready.slice(5, 7)}.${ready.slice(0, 4)}`;
          return {
            objId: o.objId,
            objCommercNm: o.name,
            objElemLivingCnt: o.objId % 2 ? String(o.flats) : o.flats,
            objReady100PercDt: spelt,
            objGuarantyEscrowFlg: o.objId % 2 ? 'да' : 1,
          };
        }),
      },
    };
    out.push({ day, source: `${day}.list.json`, raw: list, read: readAnswer(list) });
    for (const o of listed) {
      const sales = {
        data: {
          apartmentsAggData: {
            total: String(o.flats),
            realised: o.realised.get(d),
            perc: o.realised.get(d)! / o.flats,
          },
        },
      };
      out.push({
        day,
        source: `${day}.object-${o.objId}.sales_agg.json`,
        raw: sales,
        read: readAnswer(sales, o.objId),
      });
    }
  }
  return out;
}

/** Registered sales by month, recomputed from the plan: the value carried to each month's last registry day. */
function expectedSales(p: ReturnType<typeof plan>): Omit<SalesMonth, 'soldShare'>[] {
  const ends = new Map<string, number>();
  for (const d of p.days) ends.set(fromDay(d).slice(0, 7), d);
  const months = [...ends];
  const asOf = (o: PlannedObject, d: number) => {
    let v: number | undefined;
    for (const [day, x] of o.realised) if (day <= d) v = x;
    return v;
  };
  return months.map(([month, d], i) => {
    let sales: number | null = null;
    let corrections = 0;
    for (const o of p.objects) {
      const now = asOf(o, d);
      const before = i > 0 ? asOf(o, months[i - 1][1]) : undefined;
      if (now === undefined || before === undefined) continue;
      sales = (sales ?? 0) + Math.max(0, now - before);
      corrections += Math.max(0, before - now);
    }
    return { month, sales, corrections };
  });
}

async function kept(db: Db) {
  return {
    objects: await db.query(
      `select obj_id, first_day::text, last_day::text, state::text, facts::text, history::text
       from registry_object order by 1`,
    ),
    states: await db.query('select obj_id, day::text, state::text from registry_state order by 1, 2'),
    raws: await db.query('select obj_id, kind, day::text, hash from registry_raw order by 1, 2, 3'),
    seen: await db.query('select obj_id, kind, days from registry_seen order by 1, 2'),
  };
}

describeEachDb('a generated registry of 200 objects × 400 days', (ctx) => {
  it('keeps every figure equal to a recomputation from the plan; rebuild and another order give the same bytes', async () => {
    const p = plan(20261127);
    const host = commandHost(ctx.db, new Importer(ctx.db, 3, 7));
    const all = p.days.map((_, k) => k);
    const results = await applyRegistryImport(host, answersOf(p, all), cliActor());
    expect(results.every((r) => r.refused.length === 0)).toBe(true);
    const bytes = await kept(ctx.db);
    // shifts of each object: every change of its planned completion between the days it was listed
    const states = bytes.states as { obj_id: number; day: string; state: string }[];
    let moved = 0;
    for (const o of p.objects) {
      const history = states
        .filter((s) => s.obj_id === o.objId)
        .map((s) => ({ day: s.day, eff: stateOf(JSON.parse(s.state)).eff }));
      const want: { day: string; from: string; to: string }[] = [];
      let previous: string | undefined;
      for (const [d, ready] of o.ready) {
        if (previous !== undefined && ready !== previous)
          want.push({ day: fromDay(d), from: previous, to: ready });
        previous = ready;
      }
      moved += want.length;
      expect(
        shiftsOf(history).map((s) => ({ day: s.day, from: s.from, to: s.to })),
        `объект ${o.objId}`,
      ).toEqual(want);
    }
    expect(moved).toBeGreaterThan(50);
    // objects first and last seen as planned (finished ones drop out of the list)
    for (const o of p.objects) {
      const row = (bytes.objects as { obj_id: number; first_day: string; last_day: string }[]).find(
        (x) => x.obj_id === o.objId,
      )!;
      expect([row.first_day, row.last_day]).toEqual([fromDay(p.days[o.from]), fromDay(p.days[o.to])]);
    }
    // registered sales by month of the whole market, corrections apart
    const market = new MarketReader(new ReadCache());
    const sales = await registrySales(ctx.db, market, { from: '2025-01-01', to: '2026-12-31' });
    expect(sales.objects).toBe(200);
    const want = expectedSales(p);
    expect(sales.months.map(({ month, sales, corrections }) => ({ month, sales, corrections }))).toEqual(
      want,
    );
    expect(want.some((m) => m.corrections > 0)).toBe(true);
    // the last month's sold share: Σ realised / Σ flats of the objects carried to that day
    const last = p.days.at(-1)!;
    const realised = p.objects.reduce(
      (sum, o) => sum + [...o.realised].filter(([d]) => d <= last).at(-1)![1],
      0,
    );
    const flats = p.objects.reduce((sum, o) => sum + o.flats, 0);
    expect(sales.months.at(-1)!.soldShare).toBeCloseTo(realised / flats, 4);
    // made again from the raw answers, and imported in another order (the odd days, then the even ones, then
    // the last day again): the same bytes, raw answers included
    await ctx.db.query('delete from registry_state');
    await rebuildRegistry(ctx.db);
    expect(await kept(ctx.db)).toEqual(bytes);
    await ctx.db.query(
      'truncate registry_raw, registry_seen, registry_state, registry_object, registry_day cascade',
    );
    const odd = all.filter((k) => k % 2 === 1);
    await applyRegistryImport(host, answersOf(p, odd), cliActor());
    await applyRegistryImport(
      host,
      answersOf(
        p,
        all.filter((k) => k % 2 === 0),
      ),
      cliActor(),
    );
    expect(await kept(ctx.db)).toEqual(bytes);
    // the kept light histories (§11.1) are the states reduced to the figures' facts, and the facts the last
    // state's; migration 31's pass makes the same bytes from the states
    const objects = bytes.objects as { obj_id: number; facts: string; history: string }[];
    for (const o of objects.slice(0, 40)) {
      const of = states.filter((x) => x.obj_id === o.obj_id);
      const full = of.map((x) => ({ day: x.day, eff: stateOf(JSON.parse(x.state)).eff }));
      // bytea as text: \x and hex digits
      expect(decodeHistory(Buffer.from(o.history.slice(2), 'hex'))).toEqual(lightHistory([], full));
      expect(JSON.parse(o.facts)).toEqual(full.at(-1)!.eff);
    }
    await ctx.db.query('update registry_object set facts = null, history = null');
    await keepRegistryKept(ctx.db);
    expect(await kept(ctx.db)).toEqual(bytes);
  }, 240_000);
});
