import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importBatch } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { detectFormat, readFileSnapshots } from '../src/ingest/readers/index.js';
import type { ReadItem } from '../src/ingest/readers/types.js';
import { freshDb } from './databases.js';

// DESIGN §10.8: the Yandex Realty feed (YRL) that developers publish for classifieds, read as snapshots.

const FIXTURES = new URL('./fixtures/yrl/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cena-yrl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(path: string, options = {}): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readFileSnapshots(path, options)) out.push(item);
  return out;
}

describe('the YRL reader', () => {
  it('is chosen by extension or by its <realty-feed> root', () => {
    expect(detectFormat('feed.xml', '')).toBe('yrl');
    expect(detectFormat('feed.txt', '<?xml version="1.0"?><realty-feed xmlns="…">')).toBe('yrl');
    expect(detectFormat('list.json', '{"date":')).toBe('json');
  });

  it('reads flats for sale, one snapshot per complex; studios, open plan, rooms as words, price per m², «Сдан»', async () => {
    const items = await all(join(FIXTURES, 'feed.xml'));
    expect(items.every((i) => 'snapshot' in i)).toBe(true);
    const snapshots = items.map((i) => ('snapshot' in i ? i : null)!);
    expect(snapshots.map((s) => [s.snapshot.developer, s.snapshot.project, s.snapshot.date])).toEqual([
      ['Пионер', 'ЖК Тестовый', '2026-11-20'],
      ['Пионер', 'ЖК Второй', '2026-11-20'],
    ]);
    const flats = new Map(snapshots[0].snapshot.flats.map((f) => [f.externalId, f.rec]));
    expect([...flats.keys()]).toEqual(['101', '102', '103', '104']);
    expect(flats.get('101')).toEqual({
      building: '2',
      section: null,
      floor: 5,
      number: '101',
      rooms: 2,
      area: 58.4,
      facing: 'FINE_FINISHING',
      settlementDate: '2026-12-31',
      price: 12_500_000,
      basePrice: null,
      status: null,
      offer: null,
    });
    // a studio priced per m²: 310 000 × 24,5
    expect(flats.get('102')).toMatchObject({ rooms: 0, area: 24.5, price: 7_595_000, building: '2' });
    // «однокомнатная», «корп. 3», area in sq. m, no finish
    expect(flats.get('103')).toMatchObject({
      rooms: 1,
      building: '3',
      area: 36.1,
      price: 9_900_000,
      facing: 'BLACK',
      settlementDate: '2027-06-30',
    });
    // a handed-over building is «Сдан»; a booked lot is reserved
    expect(flats.get('104')).toMatchObject({
      settlementDate: 'DONE',
      status: 'RESERVED',
      facing: 'FINE_FINISHING',
    });
    expect(snapshots[1].snapshot.flats[0].rec).toMatchObject({
      building: 'А',
      facing: 'WHITE',
      settlementDate: '2028-12-31',
    });
    // what is not a flat for sale is skipped and counted
    expect(snapshots[0].skipped).toEqual({ notSale: 1, notFlat: 2, secondary: 1 });
  });

  it('the source names developer and project when it knows better; --date wins over generation-date', async () => {
    const items = await all(join(FIXTURES, 'feed.xml'), { developer: 'ГК Пионер', date: '2026-11-19' });
    expect(items.map((i) => ('snapshot' in i ? [i.snapshot.developer, i.snapshot.date] : null))).toEqual([
      ['ГК Пионер', '2026-11-19'],
      ['ГК Пионер', '2026-11-19'],
    ]);
  });

  it('a malformed offer rejects its snapshot, naming the offer, its line and the field', async () => {
    const items = await all(join(FIXTURES, 'malformed-offer.xml'));
    expect(items).toHaveLength(1);
    const errors = 'errors' in items[0] ? items[0].errors : [];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^malformed-offer\.xml: offer\[internal-id=302\] \(строка 15\)\.price: /);
    expect(errors[0]).toContain('договорная');
  });

  it('broken XML is one error with its line; a feed without flats says what it held', async () => {
    const broken = join(dir, 'broken.xml');
    writeFileSync(broken, '<realty-feed><offer internal-id="1"><price><value>1</value></price>\n<area>');
    const [item] = await all(broken, { date: '2026-11-20' });
    expect('errors' in item && item.errors[0]).toMatch(
      /^broken\.xml: строка 2, позиция \d+: не удалось разобрать XML: /,
    );
    const empty = join(dir, 'empty.xml');
    writeFileSync(
      empty,
      '<realty-feed><generation-date>2026-11-20</generation-date><offer internal-id="1"><type>аренда</type></offer></realty-feed>',
    );
    const [none] = await all(empty);
    expect('errors' in none && none.errors[0]).toBe(
      'empty.xml: в фиде нет ни одной квартиры в продаже (предложений 1, пропущено: не продажа 1)',
    );
    const undated = join(dir, 'undated.xml');
    writeFileSync(undated, '<realty-feed></realty-feed>');
    const [noDate] = await all(undated);
    expect('errors' in noDate && noDate.errors[0]).toContain('date: укажите дату снимка');
  });

  it('streams a 50 MB feed: every offer read, imported as one snapshot', async () => {
    const path = join(dir, 'big.xml');
    const out = createWriteStream(path);
    out.write(
      '<?xml version="1.0" encoding="UTF-8"?>\n<realty-feed xmlns="http://webmaster.yandex.ru/schemas/feed">\n',
    );
    out.write('<generation-date>2026-11-20T06:00:00+03:00</generation-date>\n');
    const offers = 60_000;
    for (let i = 1; i <= offers; i++) {
      const rooms = i % 4;
      const area = 25 + rooms * 18 + (i % 10);
      const chunk = `<offer internal-id="B${i}"><type>продажа</type><property-type>жилая</property-type><category>квартира</category>
<creation-date>2026-01-10T10:00:00+03:00</creation-date><location><country>Россия</country><locality-name>Москва</locality-name><address>ул. Большая, ${i}</address></location>
<sales-agent><category>застройщик</category><organization>Пионер</organization><phone>+74950000000</phone></sales-agent>
<price><value>${area * 300_000}</value><currency>RUB</currency></price><area><value>${area}</value><unit>кв. м</unit></area>
${rooms === 0 ? '<studio>1</studio>' : `<rooms>${rooms}</rooms>`}<floor>${1 + (i % 25)}</floor><floors-total>25</floors-total><apartment>${i}</apartment>
<renovation>чистовая</renovation><new-flat>1</new-flat><building-name>ЖК Большой</building-name><building-section>${1 + (i % 12)}</building-section>
<built-year>2027</built-year><ready-quarter>${1 + (i % 4)}</ready-quarter><description>Квартира ${i} в ЖК Большой, вид на парк, рядом метро и школа.</description>
<image>https://example.org/plans/${i}.png</image></offer>\n`;
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
    }
    out.end('</realty-feed>\n');
    await new Promise((r) => out.once('finish', r));
    const { statSync } = await import('node:fs');
    expect(statSync(path).size).toBeGreaterThan(50 * 1024 * 1024);
    const { db, drop } = await freshDb('pglite');
    try {
      const results = await importBatch(new Importer(db, 2), [() => readFileSnapshots(path)]);
      expect(results).toEqual([
        expect.objectContaining({
          developer: 'Пионер',
          project: 'ЖК Большой',
          flats: offers,
          status: 'imported',
        }),
      ]);
      const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from flat');
      expect(n).toBe(offers);
    } finally {
      await drop();
    }
  }, 300_000);
});
