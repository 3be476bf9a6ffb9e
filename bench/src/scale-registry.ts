import { gzipSync } from 'node:zlib';
import { lightHistory } from 'cena-metra/dist/src/analytics/registry.js';
import type { Db } from 'cena-metra/dist/src/db/driver.js';
import { encodeHistory } from 'cena-metra/dist/src/db/kept-history.js';
import { Importer } from 'cena-metra/dist/src/ingest/importer.js';
import { fromDay } from 'cena-metra/dist/src/lib/days.js';
import { answerHash, factsOf, readAnswer } from 'cena-metra/dist/src/registry/answers.js';
import type { SavedAnswer } from 'cena-metra/dist/src/registry/files.js';
import {
  type AnswerKind,
  applyDay,
  type DayAnswers,
  EMPTY_STATE,
  type ObjectState,
  stateJson,
} from 'cena-metra/dist/src/registry/state.js';
import { cliActor, commandHost } from 'cena-metra/dist/src/use-cases/host.js';
import { applyRegistryImport, matchObjects } from 'cena-metra/dist/src/use-cases/registry.js';
import { percentile, type Row } from './measure.js';

/**
 * The state registry at the country's scale (DESIGN §12.3, bench:scale): ≈ 12,000 objects with a year of
 * daily states — the list every day, each object's detail and sales weekly (its sales and sold share moving
 * each week, a fifth of them postponed once) — two objects for each of the market's projects (matched by
 * developer, name and place) and the rest registry-only. The year is bulk-loaded (the kept rows made as the
 * import makes them: a raw answer kept on a day it differs from the one before, the states replayed with
 * the import's own functions); the day after it goes through the registry's one door, timed; then «Рынок»'s
 * registry projects, the pipeline, the shifts, the reliability and the market's registered sales through
 * HTTP, each first request and p50.
 */

interface Plan {
  objects: number;
  /** the market's projects (objects 0 … 2·projects − 1 are theirs) */
  projects: number;
  developers: number;
  /** the year's days, as day numbers */
  first: number;
  days: number;
  location: (p: number) => Record<string, unknown>;
}

const OBJ_BASE = 1_000_000;
const hash32 = (n: number) => {
  let x = n | 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
};

/** What the registry says of object `i` on day `d` (a day number), each kind when it is asked that day. */
function answersOn(plan: Plan, i: number, d: number): Partial<Record<AnswerKind, unknown>> {
  const objId = OBJ_BASE + i;
  const ours = i < 2 * plan.projects;
  const p = ours ? i % plan.projects : i;
  const developer = `Застройщик ${1 + (p % plan.developers)}`;
  const name = ours ? `Проект ${p + 1}` : `Реестр ${i + 1}`;
  const where = ours ? plan.location(p) : plan.location(i % Math.max(1, plan.projects));
  const lat = Number(where.latitude ?? 55) + (ours ? 0.001 * Math.floor(i / plan.projects) : 0.3);
  const lon = Number(where.longitude ?? 37);
  const h = hash32(i);
  const flats = 100 + (h % 400);
  const start = plan.first - 200 + (h % 150);
  // a fifth of the objects postponed by six months on a day of the year
  const shiftDay = h % 5 === 0 ? plan.first + 30 + (h % (plan.days - 30)) : Number.POSITIVE_INFINITY;
  const ready = d >= shiftDay ? '2028-06-30' : '2027-12-31';
  const week = Math.floor((d - start) / 7);
  const realised = Math.min(flats, Math.max(0, Math.floor(week * flats * 0.006)));
  const out: Partial<Record<AnswerKind, unknown>> = {
    list: {
      objId,
      objCommercNm: name,
      objAddr: `${String(where.city ?? 'г. Город')}, ${name}, корп. ${1 + Math.floor(i / Math.max(1, plan.projects))}`,
      latitude: lat,
      longitude: lon,
      objElemLivingCnt: flats,
      objReady100PercDt: ready,
      objPublDt: fromDay(start),
      objGuarantyEscrowFlg: 1,
      objProblemFlg: h % 50 === 0 ? 1 : 0,
      objStatus: 0,
      developer: { devId: 1 + (p % plan.developers), shortName: `СЗ ${developer}` },
    },
  };
  if ((d + i) % 7 === 0) {
    out.detail = {
      data: {
        objId,
        nameObj: `Многоквартирный дом, корпус ${1 + Math.floor(i / Math.max(1, plan.projects))}`,
        objReady100PercDt: ready,
        objTransferPlanDt: d >= shiftDay ? '2028-09-30' : '2028-03-31',
        soldOutPerc: Math.round((realised / flats) * 100),
        objLkClassDesc: h % 3 === 0 ? 'Бизнес' : 'Комфорт',
        objFlatCnt: flats,
      },
    };
    out.sales = { data: { objId, apartmentsAggData: { total: flats, realised } } };
  }
  return out;
}

/** Bulk load of the year: each object's kept raw answers, days seen, states and row, as the import makes them. */
export async function loadRegistry(db: Db, plan: Plan, note: (s: string) => void): Promise<number> {
  const t = performance.now();
  const BATCH = 300;
  for (let from = 0; from < plan.objects; from += BATCH) {
    const raw = {
      obj: [] as number[],
      kind: [] as string[],
      day: [] as string[],
      hash: [] as string[],
      body: [] as Buffer[],
    };
    const seen = { obj: [] as number[], kind: [] as string[], days: [] as string[] };
    const states = { obj: [] as number[], day: [] as string[], state: [] as string[] };
    const objects = {
      obj: [] as number[],
      first: [] as string[],
      last: [] as string[],
      state: [] as string[],
      facts: [] as string[],
      history: [] as Buffer[],
    };
    for (let i = from; i < Math.min(plan.objects, from + BATCH); i++) {
      const objId = OBJ_BASE + i;
      const lastHash = new Map<AnswerKind, string>();
      const days = new Map<AnswerKind, number[]>();
      let state = EMPTY_STATE;
      let json: string | null = null;
      const effs: { day: string; eff: ObjectState['eff'] }[] = [];
      let firstDay: string | null = null;
      for (let d = plan.first; d < plan.first + plan.days; d++) {
        const answers = answersOn(plan, i, d);
        const day = fromDay(d);
        const changed: DayAnswers = {};
        let any = false;
        for (const kind of ['list', 'detail', 'sales'] as AnswerKind[]) {
          const a = answers[kind];
          if (a === undefined) continue;
          (days.get(kind) ?? days.set(kind, []).get(kind)!).push(d);
          const text = JSON.stringify(a);
          const hash = answerHash(text);
          if (lastHash.get(kind) === hash) continue;
          lastHash.set(kind, hash);
          raw.obj.push(objId);
          raw.kind.push(kind);
          raw.day.push(day);
          raw.hash.push(hash);
          raw.body.push(gzipSync(text));
          const facts = factsOf(kind, a, objId);
          if ('error' in facts) throw new Error(facts.error);
          changed[kind] = facts;
          any = true;
        }
        if (!any) continue;
        firstDay ??= day;
        state = applyDay(state, changed);
        const next = stateJson(state);
        if (next !== json) {
          states.obj.push(objId);
          states.day.push(day);
          states.state.push(next);
          effs.push({ day, eff: state.eff });
        }
        json = next;
      }
      for (const [kind, list] of days) {
        seen.obj.push(objId);
        seen.kind.push(kind);
        seen.days.push(`{${list.join(',')}}`);
      }
      objects.obj.push(objId);
      objects.first.push(firstDay!);
      objects.last.push(fromDay(plan.first + plan.days - 1));
      objects.state.push(json!);
      objects.facts.push(JSON.stringify(state.eff));
      objects.history.push(encodeHistory(lightHistory([], effs)));
    }
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into registry_object (obj_id, first_day, last_day, state, facts, history)
         select * from unnest($1::int[], $2::date[], $3::date[], $4::jsonb[], $5::jsonb[], $6::bytea[])`,
        [objects.obj, objects.first, objects.last, objects.state, objects.facts, objects.history],
      );
      await tx.query(
        `insert into registry_raw (obj_id, kind, day, hash, body)
         select * from unnest($1::int[], $2::text[], $3::date[], $4::text[], $5::bytea[])`,
        [raw.obj, raw.kind, raw.day, raw.hash, raw.body],
      );
      await tx.query(
        `insert into registry_seen (obj_id, kind, days) select o, k, d::int[]
         from unnest($1::int[], $2::text[], $3::text[]) as t(o, k, d)`,
        [seen.obj, seen.kind, seen.days],
      );
      await tx.query(
        `insert into registry_state (obj_id, day, state) select * from unnest($1::int[], $2::date[], $3::jsonb[])`,
        [states.obj, states.day, states.state],
      );
    });
    if ((from / BATCH) % 10 === 9)
      note(
        `scale: реестр: ${from + BATCH}/${plan.objects} объектов (${((performance.now() - t) / 1000).toFixed(0)} s)`,
      );
  }
  await db.query(
    `insert into registry_day (day, objects) select d::date, $2 from
       generate_series($1::date, $1::date + ($3 - 1), interval '1 day') as d on conflict do nothing`,
    [fromDay(plan.first), plan.objects, plan.days],
  );
  await db.query(
    'analyze registry_object; analyze registry_state; analyze registry_raw; analyze registry_seen',
  );
  return performance.now() - t;
}

/** The day after the year as наш.дом.рф answers it: the list in pages of 100, the detail and sales of those asked. */
function dayAnswers(plan: Plan, d: number): SavedAnswer[] {
  const day = fromDay(d);
  const out: SavedAnswer[] = [];
  const entries: unknown[] = [];
  for (let i = 0; i < plan.objects; i++) {
    const a = answersOn(plan, i, d);
    entries.push(a.list);
    for (const kind of ['detail', 'sales'] as const)
      if (a[kind] !== undefined)
        out.push({
          day,
          source: `объект ${OBJ_BASE + i}`,
          raw: a[kind],
          read: readAnswer(a[kind], OBJ_BASE + i),
        });
  }
  for (let at = 0; at < entries.length; at += 100) {
    const raw = { data: { total: entries.length, list: entries.slice(at, at + 100) } };
    out.unshift({ day, source: `список с ${at}`, raw, read: readAnswer(raw) });
  }
  return out;
}

export async function registryBench(
  db: Db,
  o: {
    timed: (path: string, body?: unknown) => Promise<number>;
    projects: number;
    objects: number;
    /** the market's last day and the year's length */
    last: number;
    days: number;
    location: (p: number) => Record<string, unknown>;
    developerIds: number[];
  },
  rows: Row[],
  note: (s: string) => void,
): Promise<void> {
  const plan: Plan = {
    objects: o.objects,
    projects: o.projects,
    developers: Math.max(1, Math.round(o.projects / 10)),
    first: o.last - o.days + 1,
    days: o.days,
    location: o.location,
  };
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from registry_object');
  if (n === 0) {
    note(`scale: реестр: ${plan.objects} объектов × ${plan.days} дней загружаются…`);
    const loadMs = await loadRegistry(db, plan, note);
    const t = performance.now();
    await matchObjects(db);
    const matchMs = performance.now() - t;
    const [{ states, raws, matched, bytes }] = await db.query<{
      states: number;
      raws: number;
      matched: number;
      bytes: number;
    }>(
      `select (select count(*) from registry_state)::int as states, (select count(*) from registry_raw)::int as raws,
         (select count(*) from registry_object where project_id is not null)::int as matched,
         (select pg_total_relation_size('registry_state') + pg_total_relation_size('registry_raw'))::bigint as bytes`,
    );
    rows.push(
      {
        what: `registry: ${plan.objects} objects × ${plan.days} days, bulk load (the import's kept rows)`,
        value: `${(loadMs / 1000).toFixed(0)} s; ${states.toLocaleString('en')} states, ${raws.toLocaleString('en')} raw answers, ${(Number(bytes) / 1e6).toFixed(0)} MB`,
      },
      {
        what: 'registry: every object matched to our projects (the rule)',
        value: `${(matchMs / 1000).toFixed(1)} s; ${matched.toLocaleString('en')} matched`,
      },
    );
  }
  // the day after the year through the one door: the list, and the detail and sales of the objects asked
  const [{ last }] = await db.query<{ last: string }>('select max(day)::text as last from registry_day');
  const next = Math.max(plan.first + plan.days, Date.parse(`${last}T00:00:00Z`) / 86_400_000 + 1);
  const answers = dayAnswers(plan, next);
  note(`scale: реестр: день ${fromDay(next)} (${answers.length} ответов) через импорт…`);
  const host = commandHost(db, new Importer(db, 2));
  const t = performance.now();
  const [result] = await applyRegistryImport(host, answers, cliActor());
  const dayMs = performance.now() - t;
  rows.push({
    what: `registry: a day's import (${plan.objects} objects listed, ${answers.length - Math.ceil(plan.objects / 100)} details and sales; ${result.changed} changed)`,
    value: `${(dayMs / 1000).toFixed(1)} s`,
    budget: '≤ 5 min',
    ok: dayMs <= 300_000,
  });
  // the reads, through HTTP: each first request, then p50 of ten
  const read = async (
    what: string,
    path: string,
    body?: unknown,
    budget?: { first: number; p50: number },
  ) => {
    const first = await o.timed(path, body);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) times.push(await o.timed(path, body));
    const p50 = percentile(times, 50);
    rows.push({
      what: `registry: ${what}: first request / p50`,
      value: `${first.toFixed(0)} / ${p50.toFixed(1)} ms`,
      ...(budget && {
        budget: `≤ ${budget.first} / ≤ ${budget.p50} ms`,
        ok: first <= budget.first && p50 <= budget.p50,
      }),
    });
  };
  note('scale: реестр: чтения…');
  await read(
    `«Рынок»'s every registry project (${plan.objects} objects)`,
    '/registry/market',
    {},
    { first: 1000, p50: 100 },
  );
  await read('the pipeline of the country by quarter', '/registry/pipeline', {
    from: '2025-01-01',
    to: '2029-12-31',
  });
  await read('«Надёжность сроков» of every developer', '/registry/reliability');
  await read("a developer's shifts", `/registry/shifts?developerId=${o.developerIds[0]}`);
  await read('registered sales of the whole market by month', '/registry/sales', {
    from: fromDay(plan.first),
    to: fromDay(next),
  });
}
