import { registerLocalFeed } from '../collect/local-feeds.js';
import { toDay } from '../lib/days.js';
import { createRandom, hash01 } from './random.js';

/**
 * Two price lists the demo server publishes itself under /demo-feeds/ (DESIGN §10.8), so that a newcomer
 * sees the «Источники» page work and can run a collection: a Yandex Realty feed of «ЖК Ручей» (Пионер) and a
 * PIK-API-shaped list of «Демо API» (ПИК), paged. Lots and their prices follow the date: each day's
 * collection is a new snapshot, with a few lots sold, a few new, and some prices changed.
 */

interface DemoLot {
  id: number;
  building: number;
  section: number;
  floor: number;
  number: number;
  rooms: number;
  area: number;
  basePpm: number;
  /** the day it goes on sale and the day it is sold */
  from: number;
  until: number;
}

const FIRST_DAY = toDay('2026-01-01');

function lotsOf(seed: number, count: number): DemoLot[] {
  const r = createRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const rooms = r.int(0, 3);
    return {
      id: seed * 10_000 + i + 1,
      building: 1 + (i % 3),
      section: 1 + (i % 2),
      floor: 2 + (i % 20),
      number: i + 1,
      rooms,
      area: Math.round((24 + rooms * 17 + r.next() * 10) * 10) / 10,
      basePpm: r.between(260_000, 340_000),
      from: FIRST_DAY + r.int(-200, 600),
      until: FIRST_DAY + r.int(300, 1500),
    };
  });
}

const RUCHEY = lotsOf(71, 160);
const PIK_DEMO = lotsOf(72, 230);

/** The lots on sale on `date`, each with its price of the day (prices step up now and then, some fall). */
function onSale(lots: DemoLot[], date: string) {
  const day = toDay(date);
  return lots
    .filter((l) => l.from <= day && day < l.until)
    .map((l) => {
      const months = Math.floor((day - FIRST_DAY) / 30);
      const drift = 1 + 0.006 * months + (hash01(l.id, Math.floor(day / 7)) - 0.5) * 0.04;
      return {
        lot: l,
        price: Math.round((l.basePpm * drift * l.area) / 1000) * 1000,
        reserved: hash01(l.id, day) < 0.1,
      };
    });
}

const xml = (s: string | number) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The YRL feed of «ЖК Ручей» on `date`. */
export function demoYrl(date: string): string {
  const offers = onSale(RUCHEY, date).map(({ lot, price, reserved }) => {
    const rooms = lot.rooms === 0 ? '<studio>1</studio>' : `<rooms>${lot.rooms}</rooms>`;
    const ready = lot.building === 1 ? '<building-state>hand-over</building-state>' : '';
    return `  <offer internal-id="R${lot.id}">
    <type>продажа</type><property-type>жилая</property-type><category>квартира</category>
    <sales-agent><category>застройщик</category><organization>Пионер</organization></sales-agent>
    <price><value>${price}</value><currency>RUB</currency></price>
    <area><value>${lot.area}</value><unit>кв. м</unit></area>
    ${rooms}<floor>${lot.floor}</floor><apartment>${lot.number}</apartment>
    <renovation>${xml(lot.building === 3 ? 'без отделки' : 'чистовая')}</renovation>
    <location><country>Россия</country><region>Москва</region><locality-name>Москва</locality-name>
      <sub-locality-name>Бирюлёво Восточное</sub-locality-name><address>ул. Лебедянская, 12</address>
      <latitude>55.5932</latitude><longitude>37.6751</longitude>
      <metro><name>Царицыно</name><time-on-transport>12</time-on-transport></metro>
      <railway-station>Покровское</railway-station></location>
    <new-flat>1</new-flat><building-name>ЖК Ручей</building-name><building-section>Корпус ${lot.building}</building-section>
    ${ready}<built-year>${2026 + lot.building}</built-year><ready-quarter>${1 + (lot.building % 4)}</ready-quarter>
    ${reserved ? '<status>booked</status>' : ''}
  </offer>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<realty-feed xmlns="http://webmaster.yandex.ru/schemas/feed">
  <generation-date>${date}T06:00:00+03:00</generation-date>
${offers.join('\n')}
</realty-feed>
`;
}

/** Page `page` (from 1) of the PIK-API-shaped list of «Демо API» on `date`: `{flats: […]}`, empty past the end. */
export function demoPikPage(date: string, page: number, pageSize = 50): { flats: unknown[] } {
  const all = onSale(PIK_DEMO, date);
  const flats = all.slice((page - 1) * pageSize, page * pageSize).map(({ lot, price, reserved }) => ({
    id: lot.id,
    status: reserved ? 'reserve' : 'free',
    rooms: lot.rooms === 0 ? 'studio' : lot.rooms,
    floor: lot.floor,
    number: String(lot.number),
    price,
    area: lot.area,
    finish: { isFinish: lot.building !== 2, whiteBox: false },
    furniture: false,
    block: { id: 9001, name: 'Демо API' },
    bulk: { name: `Корпус ${lot.building}`, settlement_year: 2026 + lot.building },
    section: { number: lot.section },
  }));
  return { flats };
}

/**
 * The demo's two sources, by name, read in-process (`local:`, collect/local-feeds.ts): a collection never
 * calls this machine over HTTP (DESIGN §11.5). The same lists are open to a person under /demo-feeds/.
 */
export function demoSources() {
  return [
    { name: 'Демо: ЖК Ручей (фид YRL)', kind: 'yrl' as const, url: 'local:demo/ruchey.xml' },
    { name: 'Демо: API ПИК', kind: 'pik-api' as const, url: 'local:demo/pik-api' },
  ];
}

/** The demo's feeds registered for `local:` addresses: the day asked (`date`), else `today()`; PIK's `page`. */
export function registerDemoFeeds(today: () => string): void {
  const day = (url: URL) => url.searchParams.get('date') ?? today();
  registerLocalFeed('demo/ruchey.xml', (url) => Buffer.from(demoYrl(day(url))));
  registerLocalFeed('demo/pik-api', (url) =>
    Buffer.from(JSON.stringify(demoPikPage(day(url), Number(url.searchParams.get('page') ?? 1) || 1))),
  );
}
