import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectivePlace, mergeSourcePlace, placeOfList, readPlaceInput } from '../src/ingest/place.js';
import { describeEachDb } from './databases.js';
import { flat, snap } from './market-fixture.js';
import { FIXTURES, scratchDir, snapshotsOf, writeYrlFeed } from './read-snapshots.js';
import { signedInApp } from './signed-in-app.js';

// DESIGN §11.3: where a project is, from the lists (latest non-empty value wins) or a hand edit (wins).

const dir = scratchDir('cena-place-');

describe("a list's place", () => {
  it('keeps what is valid and refuses each bad value with its field named', () => {
    const warnings: string[] = [];
    const place = readPlaceInput(
      {
        region: ' Москва ',
        district: 'Южное Бутово',
        latitude: 95,
        longitude: 37.5,
        stations: [
          { name: 'Бунинская аллея', minutes: 12, mode: 'foot' },
          { name: 'Улица Горчакова', minutes: -1, mode: 'foot' },
          { name: 'Бульвар Адмирала Ушакова', minutes: 301, mode: 'by-boat' },
          { name: '' },
        ],
      },
      (field, message) => warnings.push(`${field}: ${message}`),
    );
    expect(place).toEqual({
      region: 'Москва',
      district: 'Южное Бутово',
      stations: [
        { name: 'Бунинская аллея', minutes: 12, mode: 'foot', kind: 'metro' },
        { name: 'Улица Горчакова', minutes: null, mode: 'foot', kind: 'metro' },
        { name: 'Бульвар Адмирала Ушакова', minutes: null, mode: null, kind: 'metro' },
      ],
    });
    expect(warnings).toEqual([
      'location.latitude: должно быть числом от −90 до 90',
      'location.stations[1].minutes: должно быть целым числом минут от 0 до 300',
      'location.stations[2].mode: одно из foot, transport',
      'location.stations[2].minutes: должно быть целым числом минут от 0 до 300',
    ]);
    expect(readPlaceInput({ longitude: 181, latitude: 55 }, () => {})).toBeUndefined();
    // «7 мин» as the scrape writes it; 0, 0 is a feed's empty coordinates
    expect(
      readPlaceInput({ latitude: 0, longitude: 0, stations: [{ name: 'А', minutes: '7 мин' }] }, () => {}),
    ).toEqual({ stations: [{ name: 'А', minutes: 7, mode: null, kind: 'metro' }] });
  });

  it('the latest non-empty value wins field by field; an older list or one without the field never blanks it', () => {
    const first = placeOfList({ district: 'Старый', address: 'ул. Первая, 1' }, '2026-11-10');
    const newer = mergeSourcePlace(first, placeOfList({ district: 'Новый' }, '2026-11-12'))!;
    expect(effectivePlace(newer, {})).toMatchObject({ district: 'Новый', address: 'ул. Первая, 1' });
    // a back-filled older list changes nothing
    expect(mergeSourcePlace(newer, placeOfList({ district: 'Старый' }, '2026-11-11'))).toBeNull();
    // the same value again is no change
    expect(mergeSourcePlace(newer, placeOfList({ district: 'Новый' }, '2026-11-12'))).toBeNull();
    // a hand edit wins over every source
    expect(effectivePlace(newer, { district: 'Вручную' }).district).toBe('Вручную');
  });
});

describe('readers give the place', () => {
  it('YRL: <location> with region, locality, sub-locality, coordinates, metro and railway stations', async () => {
    const path = writeYrlFeed(
      join(dir, 'feed.xml'),
      `  <offer internal-id="1">
    <type>продажа</type><category>квартира</category>
    <location>
      <country>Россия</country><region>Москва</region><locality-name>Москва</locality-name>
      <sub-locality-name>Бирюлёво Восточное</sub-locality-name><address>ул. Лебедянская, 12</address>
      <latitude>55.5932</latitude><longitude>37.6751</longitude>
      <metro><name>Царицыно</name><time-on-foot>14</time-on-foot><time-on-transport>5</time-on-transport></metro>
      <metro><name>Кантемировская</name><time-on-transport>12</time-on-transport></metro>
      <railway-station>Покровское</railway-station>
    </location>
    <sales-agent><organization>Пионер</organization></sales-agent>
    <price><value>9000000</value><currency>RUB</currency></price>
    <area><value>40</value></area><rooms>1</rooms>
    <building-name>ЖК Ручей</building-name><building-section>1</building-section>
  </offer>
  <offer internal-id="2">
    <type>продажа</type><category>квартира</category>
    <location><latitude>200</latitude><longitude>37.6</longitude></location>
    <sales-agent><organization>Пионер</organization></sales-agent>
    <price><value>9000000</value></price><area><value>40</value></area><rooms>1</rooms>
    <building-name>ЖК Другой</building-name><building-section>1</building-section>
  </offer>`,
    );
    const [ruchey, other] = await snapshotsOf(path);
    expect(ruchey.place).toEqual({
      region: 'Москва',
      city: 'Москва',
      district: 'Бирюлёво Восточное',
      address: 'ул. Лебедянская, 12',
      coordinates: { latitude: 55.5932, longitude: 37.6751 },
      stations: [
        { name: 'Царицыно', minutes: 14, mode: 'foot', kind: 'metro' },
        { name: 'Кантемировская', minutes: 12, mode: 'transport', kind: 'metro' },
        { name: 'Покровское', minutes: null, mode: null, kind: 'rail' },
      ],
    });
    expect(ruchey.warnings).toBeUndefined();
    // a latitude out of range: refused with the field named, the list kept
    expect(other.flats).toHaveLength(1);
    expect(other.place).toBeUndefined();
    expect(other.warnings).toEqual([
      'feed.xml: location.latitude: должно быть числом от −90 до 90 (получено "200")',
    ]);
  });

  it('the PIK scrape: the address and the nearest metro with minutes from projects.csv (real fixture)', async () => {
    const snapshots = await snapshotsOf(join(FIXTURES, 'pik-scrape', 'flats.csv'), { date: '2021-01-15' });
    const salaryevo = snapshots.find((s) => s.project === 'Саларьево парк')!;
    expect(salaryevo.place).toEqual({
      address: 'Саларьево парк',
      stations: [{ name: 'Саларьево', minutes: 5, mode: 'foot', kind: 'metro' }],
    });
    expect(snapshots.every((s) => s.place?.stations?.length === 1)).toBe(true);
  });
});

const MOSCOW = {
  region: 'Москва',
  city: 'Москва',
  district: 'Южное Бутово',
  latitude: 55.54,
  longitude: 37.51,
  stations: [{ name: 'Бунинская аллея', minutes: 12, mode: 'foot' }],
};
const SPB = {
  region: 'Санкт-Петербург',
  city: 'Санкт-Петербург',
  district: 'Приморский район',
  latitude: 59.99,
  longitude: 30.21,
  stations: [{ name: 'Беговая', minutes: 8, mode: 'foot' }],
};
const list = (date: string, project: string, location: unknown, price = 8_000_000) => ({
  ...snap(date, 'Пионер', project, [flat('a', 1, 40, price), flat('b', 2, 60, 12_000_000)]),
  location,
});

describeEachDb('places through the API: import, hand edit, the market by place', (ctx) => {
  let app: FastifyInstance;
  let headers: Record<string, string> = {};
  const ingest = (body: unknown) =>
    app.inject({ method: 'POST', url: '/api/ingest/snapshots', payload: body as object, headers });
  const placeOf = async (id: number) =>
    (await app.inject({ method: 'GET', url: `/api/projects/${id}/place`, headers })).json();
  const market = async (filters: Record<string, unknown> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/market',
      headers,
      payload: { from: '2026-11-01', to: '2026-11-05', ...filters },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  let butovo = 0;
  let primorsky = 0;

  beforeAll(async () => {
    ({ app, headers } = await signedInApp(ctx.db));
  });
  afterAll(async () => app?.close());

  it('an import takes the place; a bad value is reported with its field and the rest imported', async () => {
    const res = await ingest([
      list('2026-11-01', 'Липовая роща', MOSCOW),
      list('2026-11-01', 'Береговой', { ...SPB, longitude: 190 }),
      list('2026-11-01', 'Без места', undefined),
    ]);
    expect(res.statusCode).toBe(200);
    const results = res.json();
    expect(results.map((r: { status: string }) => r.status)).toEqual(['imported', 'imported', 'imported']);
    expect(results[1].warnings).toEqual([
      'тело запроса: [1]: location.longitude: должно быть числом от −180 до 180 (получено 190)',
    ]);
    const ids = await ctx.db.query<{ id: number; name: string }>('select id, name from project order by id');
    butovo = ids.find((p) => p.name === 'Липовая роща')!.id;
    primorsky = ids.find((p) => p.name === 'Береговой')!.id;
    expect((await placeOf(butovo)).place).toEqual({
      region: 'Москва',
      city: 'Москва',
      district: 'Южное Бутово',
      address: null,
      latitude: 55.54,
      longitude: 37.51,
      stations: [{ name: 'Бунинская аллея', minutes: 12, mode: 'foot', kind: 'metro' }],
    });
    expect((await placeOf(primorsky)).place).toMatchObject({
      district: 'Приморский район',
      latitude: null,
      longitude: null,
    });
  });

  it('a later list without the place keeps it; a newer value wins; an older one does not', async () => {
    await ingest([list('2026-11-03', 'Липовая роща', undefined, 7_900_000)]);
    expect((await placeOf(butovo)).place.district).toBe('Южное Бутово');
    await ingest([list('2026-11-04', 'Липовая роща', { district: 'Бутово' }, 7_800_000)]);
    await ingest([list('2026-11-02', 'Липовая роща', { district: 'Старое имя' }, 7_950_000)]);
    expect((await placeOf(butovo)).place.district).toBe('Бутово');
  });

  it('a hand edit wins over later imports; null gives the sources back; bad input is a 400 naming the field', async () => {
    const put = (id: number, payload: unknown) =>
      app.inject({ method: 'PUT', url: `/api/projects/${id}/place`, headers, payload: payload as object });
    const edited = await put(butovo, { district: 'Южное Бутово', address: 'ул. Поляны, 54' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      place: { district: 'Южное Бутово', address: 'ул. Поляны, 54' },
      edited: ['district', 'address'],
      sources: { district: 'Бутово', address: null },
    });
    await ingest([list('2026-11-05', 'Липовая роща', { district: 'Бутово-2' }, 7_700_000)]);
    expect((await placeOf(butovo)).place.district).toBe('Южное Бутово');
    const back = await put(butovo, { address: null });
    expect(back.json().edited).toEqual(['district']);
    expect(back.json().place.address).toBeNull();

    const coordinates = await put(primorsky, { coordinates: { latitude: 59.99, longitude: 300 } });
    expect(coordinates.statusCode).toBe(400);
    expect(coordinates.json().message).toMatch(/coordinates\.longitude/);
    const minutes = await put(primorsky, { stations: [{ name: 'Беговая', minutes: -5 }] });
    expect(minutes.statusCode).toBe(400);
    expect(minutes.json().message).toMatch(/stations.*minutes/);
    const unknown = await put(primorsky, { planet: 'Марс' });
    expect(unknown.statusCode).toBe(400);
    expect((await put(999_999, { district: 'Нигде' })).statusCode).toBe(404);
    const fixed = await put(primorsky, { coordinates: { latitude: 59.99, longitude: 30.21 } });
    expect(fixed.json().place).toMatchObject({ latitude: 59.99, longitude: 30.21 });
  });

  it('the market filters and groups by place; every project’s place by itself', async () => {
    // no table of places unless asked (the ranking alone stays as fast as before)
    expect((await market()).places).toBeNull();
    const all = await market({ groupBy: 'district' });
    expect(all.projects).toHaveLength(3);
    const row = all.projects.find((p: { id: number }) => p.id === butovo);
    // the ranking is sent without places; every project's place comes by itself, joined by id
    expect(row.place).toBeUndefined();
    const places = await app.inject({ method: 'GET', url: '/api/places/projects', headers });
    expect(places.statusCode).toBe(200);
    expect(places.json().projects.find((p: { projectId: number }) => p.projectId === butovo)).toMatchObject({
      region: 'Москва',
      district: 'Южное Бутово',
      latitude: 55.54,
    });
    const again = await app.inject({
      method: 'GET',
      url: '/api/places/projects',
      headers: { ...headers, 'if-none-match': places.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(all.places.by).toBe('district');
    expect(
      all.places.rows.map((r: { name: string; projects: number }) => [r.name, r.projects]).sort(),
    ).toEqual([
      ['Не указано', 1],
      ['Приморский район', 1],
      ['Южное Бутово', 1],
    ]);
    // a place's row is the union of its projects: here one each, so its figures are the project's
    const butovoRow = all.places.rows.find((r: { name: string }) => r.name === 'Южное Бутово');
    expect(butovoRow).toMatchObject({
      stock: row.stock,
      avgMeterPrice: row.avgMeterPrice,
      indexChange: row.indexChange,
    });

    // the projects' rows left out (a page that shows the table by place): the same places, total, developers
    const lean = await market({ groupBy: 'district', projects: false });
    expect(lean.projects).toEqual([]);
    expect({ ...lean, projects: all.projects }).toEqual(all);
    const notBoolean = await app.inject({
      method: 'POST',
      url: '/api/market',
      headers,
      payload: { from: '2026-11-01', to: '2026-11-05', projects: 'no' },
    });
    expect([notBoolean.statusCode, notBoolean.json().message]).toEqual([
      400,
      expect.stringContaining('projects'),
    ]);

    const byRegion = await market({ groupBy: 'region' });
    expect(byRegion.places.rows.map((r: { name: string }) => r.name).sort()).toEqual([
      'Москва',
      'Не указано',
      'Санкт-Петербург',
    ]);
    const moscow = await market({ region: 'москва' });
    expect(moscow.projects.map((p: { id: number }) => p.id)).toEqual([butovo]);
    expect(moscow.total.projects).toBe(1);
    const station = await market({ station: 'Беговая', groupBy: 'station' });
    expect(station.projects.map((p: { id: number }) => p.id)).toEqual([primorsky]);
    expect(station.places.rows.map((r: { name: string }) => r.name)).toEqual(['Беговая']);
    expect((await market({ district: 'Нигде' })).projects).toEqual([]);
    // a hand edit moves the project at once: the market's held list of projects follows the places' version
    const moved = await app.inject({
      method: 'PUT',
      url: `/api/projects/${primorsky}/place`,
      headers,
      payload: { district: 'Нигде' },
    });
    expect(moved.statusCode).toBe(200);
    expect((await market({ district: 'Нигде' })).projects.map((p: { id: number }) => p.id)).toEqual([
      primorsky,
    ]);
    const undo = await app.inject({
      method: 'PUT',
      url: `/api/projects/${primorsky}/place`,
      headers,
      payload: { district: null },
    });
    expect(undo.statusCode).toBe(200);
    expect((await market({ district: 'Нигде' })).projects).toEqual([]);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/market',
      headers,
      payload: { from: '2026-11-01', to: '2026-11-05', groupBy: 'planet' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/groupBy/);
  });
});
