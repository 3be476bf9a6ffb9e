import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { shiftsOf } from '../src/analytics/registry.js';
import type { Db } from '../src/db/driver.js';
import { Importer } from '../src/ingest/importer.js';
import { readAnswer } from '../src/registry/answers.js';
import { readRegistryFile, type SavedAnswer } from '../src/registry/files.js';
import { stateOf } from '../src/registry/state.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyRegistryImport, rebuildRegistry } from '../src/use-cases/registry.js';
import { describeEachDb } from './databases.js';

// The registry's example answers (../shared/data/registry, beside the checkout; CI has them): three objects
// on two days, spellings mixed on purpose (README there).
const REGISTRY = fileURLToPath(new URL('../../../../shared/data/registry/', import.meta.url));
const files = readdirSync(REGISTRY)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => join(REGISTRY, f));

async function answersOf(paths: string[]): Promise<SavedAnswer[]> {
  const out: SavedAnswer[] = [];
  for (const p of paths) for await (const a of readRegistryFile(p)) out.push(a);
  return out;
}

async function registryRows(db: Db) {
  return {
    objects: await db.query(
      'select obj_id, first_day::text, last_day::text, state::text, project_id, building, match from registry_object order by 1',
    ),
    states: await db.query('select obj_id, day::text, state::text from registry_state order by 1, 2'),
  };
}

const host = (db: Db) => commandHost(db, new Importer(db, 3, 7));

it('reads every example answer as DESIGN §12.3 says: dates, quarters, numbers, shares, flags, missing fields', async () => {
  const answers = await answersOf(files);
  expect(answers.map((a) => a.day)).toEqual(files.map((f) => /\d{4}-\d{2}-\d{2}/.exec(f)![0]));
  for (const a of answers) expect('error' in a.read, a.source).toBe(false);
  const list = answers.find((a) => a.source === '2026-10-31.list.json')!.read;
  if ('error' in list) throw new Error(list.error);
  const facts = Object.fromEntries(
    list.objects.map((o) => ['facts' in o ? o.objId : 0, 'facts' in o ? o.facts : {}]),
  );
  expect(list.total).toBe(3);
  expect(facts[51234]).toMatchObject({
    name: 'ЖК «Озёрный парк»',
    lat: 55.5701,
    flats: 412,
    livingArea: 21850.4,
    ready: { day: '2026-12-31', quarter: false },
    published: { day: '2024-03-15', quarter: false },
    escrow: true,
    problem: false,
    region: 77,
    priceAvg: 318450,
    metro: 'Прокшино',
    metroMinutes: 12,
    devId: 901,
    devName: 'ООО «СЗ Пример»',
    devInn: '7701234567',
    group: 'ГК Пример',
  });
  // numbers as strings, a quarter, DD.MM.YYYY, true and «нет», a null price
  expect(facts[51235]).toMatchObject({
    lat: 55.5712,
    lon: 37.473,
    flats: 530,
    livingArea: 27933.9,
    ready: { day: '2027-12-31', quarter: true },
    published: { day: '2024-09-15', quarter: false },
    escrow: true,
    problem: false,
    devName: 'СЗ Пример',
  });
  expect(facts[51235].priceAvg).toBeUndefined();
  // an ISO timestamp, 0 and 1, a developer without a group
  expect(facts[60777]).toMatchObject({
    ready: { day: '2026-09-30', quarter: false },
    escrow: false,
    problem: true,
  });
  expect(facts[60777].group).toBeUndefined();
  const detail = (id: number) => {
    const r = answers.find((a) => a.source === `2026-10-31.object-${id}.json`)!.read;
    if ('error' in r || !('facts' in r.objects[0])) throw new Error('unread');
    return r.objects[0].facts;
  };
  // shares as 0–1, 0–100 and a string; a date as DD.MM.YYYY; a null keys' date is no date
  expect(detail(51234)).toMatchObject({
    soldShare: 0.61,
    classRaw: 'Комфорт',
    transfer: { day: '2027-03-31' },
  });
  expect(detail(51235)).toMatchObject({
    soldShare: 0.35,
    classRaw: 'комфорт',
    transfer: { day: '2028-06-30' },
  });
  expect(detail(60777)).toMatchObject({ soldShare: 0.9, classRaw: 'Бизнес' });
  expect(detail(60777).transfer).toBeUndefined();
  const sales = answers.find((a) => a.source === '2026-10-31.object-51234.sales_agg.json')!.read;
  expect(sales).toMatchObject({
    kind: 'sales',
    objects: [{ objId: 51234, facts: { salesTotal: 412, salesRealised: 251 } }],
  });
});

it('refuses an answer of no known shape, and an object whose field no spelling reads, naming it', () => {
  expect(readAnswer({ data: { foo: 1 } })).toEqual({ error: expect.stringContaining('неизвестного вида') });
  expect(readAnswer('текст')).toEqual({ error: 'ответ реестра без data' });
  const read = readAnswer({
    data: {
      list: [
        { objId: 1, objReady100PercDt: 'скоро' },
        { objId: 2, objElemLivingCnt: '12' },
      ],
      total: 2,
    },
  });
  expect(read).toMatchObject({
    kind: 'list',
    objects: [
      { objId: 1, error: 'объект 1: objReady100PercDt: не дата («скоро»)' },
      { objId: 2, facts: { flats: 12 } },
    ],
  });
});

it('refuses an answer without a real day, naming the file or line, and imports nothing of it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cena-registry-'));
  const answer = JSON.stringify({ data: { list: [{ objId: 1 }] } });
  writeFileSync(join(dir, '2026-02-30.list.json'), answer);
  writeFileSync(
    join(dir, 'answers.ndjson'),
    [
      JSON.stringify({ day: '2026-13-01', answer: JSON.parse(answer) }),
      JSON.stringify({ day: '2026-11-01', answer: JSON.parse(answer) }),
      '{не json',
    ].join('\n'),
  );
  const read = await answersOf([join(dir, '2026-02-30.list.json'), join(dir, 'answers.ndjson')]);
  expect(read.map((a) => [a.day, a.source, 'error' in a.read ? a.read.error : 'ok'])).toEqual([
    [
      '',
      '2026-02-30.list.json',
      '2026-02-30.list.json: нет дня ответа — ГГГГ-ММ-ДД в имени файла, в day или в --date',
    ],
    [
      '',
      'answers.ndjson:1',
      'answers.ndjson:1: нет дня ответа — ГГГГ-ММ-ДД в имени файла, в day или в --date',
    ],
    ['2026-11-01', 'answers.ndjson:2', 'ok'],
    ['', 'answers.ndjson:3', 'answers.ndjson:3: строка не JSON'],
  ]);
  rmSync(dir, { recursive: true, force: true });
});

describeEachDb('the registry imported through its one door', (ctx) => {
  it('keeps each object by day as changes: the shifts, the sales, the same bytes again, after a rebuild and in any order', async () => {
    const results = await applyRegistryImport(host(ctx.db), await answersOf(files), cliActor());
    expect(results.map((r) => [r.day, r.objects, r.changed, r.refused.length])).toEqual([
      ['2026-10-31', 3, 3, 0],
      // object 60777's second day differs only in the time of its load: kept raw, no new state
      ['2026-11-26', 3, 2, 0],
    ]);
    const kept = await registryRows(ctx.db);
    const states = (id: number) =>
      (kept.states as { obj_id: number; day: string; state: string }[])
        .filter((s) => s.obj_id === id)
        .map((s) => ({ day: s.day, eff: stateOf(JSON.parse(s.state)).eff }));
    // object 51234: completion and keys moved by six months each between the days
    expect(shiftsOf(states(51234))).toEqual([
      { field: 'ready', day: '2026-11-26', from: '2026-12-31', to: '2027-06-30', months: 6 },
      { field: 'transfer', day: '2026-11-26', from: '2027-03-31', to: '2027-09-30', months: 6 },
    ]);
    const realised = (id: number) => states(id).map((s) => s.eff.salesRealised);
    expect([realised(51234), realised(51235), realised(60777)]).toEqual([[251, 264], [186, 201], [54]]);
    // the same answers again change nothing
    const again = await applyRegistryImport(host(ctx.db), await answersOf(files), cliActor());
    expect(again.map((r) => r.changed)).toEqual([0, 0]);
    expect(await registryRows(ctx.db)).toEqual(kept);
    // made again from the raw answers: the same bytes
    await ctx.db.query('delete from registry_state');
    await ctx.db.query(`update registry_object set state = '{}'::jsonb`);
    expect(await rebuildRegistry(ctx.db)).toBe(3);
    expect(await registryRows(ctx.db)).toEqual(kept);
    // the later day first, then the earlier: the same states
    await ctx.db.query(
      'truncate registry_raw, registry_seen, registry_state, registry_object, registry_day cascade',
    );
    const later = files.filter((f) => f.includes('2026-11-26'));
    await applyRegistryImport(host(ctx.db), await answersOf(later), cliActor());
    await applyRegistryImport(
      host(ctx.db),
      await answersOf(files.filter((f) => !later.includes(f))),
      cliActor(),
    );
    expect(await registryRows(ctx.db)).toEqual(kept);
  });

  it('a day with a bad answer keeps the other objects and names the refused one in the run’s record', async () => {
    await ctx.db.query(
      'truncate registry_raw, registry_seen, registry_state, registry_object, registry_day cascade',
    );
    const day = '2026-12-01';
    const answers: SavedAnswer[] = [
      {
        day,
        source: 'плохой.json',
        raw: null,
        read: readAnswer({
          data: {
            list: [
              { objId: 7, objCommercNm: 'Хороший', objElemLivingCnt: 10 },
              { objId: 8, objCommercNm: 'Плохой', objSquareLiving: 'много' },
            ],
          },
        }),
      },
      { day, source: 'мусор.json', raw: null, read: readAnswer([1, 2]) },
    ];
    const [result] = await applyRegistryImport(host(ctx.db), answers, cliActor());
    expect(result.objects).toBe(1);
    expect(result.refused).toEqual([
      { objId: 8, source: 'плохой.json', message: 'объект 8: objSquareLiving: не число ("много")' },
      { objId: null, source: 'мусор.json', message: 'ответ реестра без data' },
    ]);
    const [record] = await ctx.db.query<{ objects: number; refused: unknown }>(
      'select objects, refused from registry_day where day = $1',
      [day],
    );
    expect(record.objects).toBe(1);
    expect(record.refused).toEqual(result.refused);
    expect(await ctx.db.query('select obj_id from registry_object')).toEqual([{ obj_id: 7 }]);
  });
});
