import { fromDay, toDay } from '../lib/days.js';
import { readAnswer } from '../registry/answers.js';
import type { SavedAnswer } from '../registry/files.js';
import type { DemoPlan } from './generate.js';
import { demoLocation } from './places.js';

/**
 * The demo market's registry (DESIGN §12.3): an object for each of a project's first three buildings, seen
 * at every quarter's end of the last year and a half and on the demo's last day, as наш.дом.рф answers them (the
 * list, each object's detail and sales; spellings mixed as the real ones are). A newcomer sees the feature
 * on the first start: declared dates, one moved twice and one moved earlier, a problem flag, registered
 * sales, and a project the registry has that we have no list of.
 */

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'];

/** The registry's days of the demo: each quarter's end of the last year and a half, and the last day. */
export function demoRegistryDays(until: string): string[] {
  const end = toDay(until);
  const days: string[] = [];
  const year = Number(until.slice(0, 4));
  for (let y = year - 2; y <= year; y++)
    for (const q of QUARTER_ENDS) {
      const day = `${y}-${q}`;
      if (toDay(day) < end && toDay(day) > end - 550) days.push(day);
    }
  days.push(until);
  return days;
}

const addMonths = (day: string, months: number) => {
  const [y, m] = day.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const last = new Date(Date.UTC(Math.floor(total / 12), (total % 12) + 1, 0));
  return last.toISOString().slice(0, 10);
};

const quarterText = (day: string) => {
  const m = Number(day.slice(5, 7));
  return `${['I', 'II', 'III', 'IV'][Math.floor((m - 1) / 3)]} кв. ${day.slice(0, 4)}`;
};

interface DemoObject {
  objId: number;
  project: string;
  developer: string;
  building: string;
  lat: number | null;
  lon: number | null;
  flats: number;
  /** the day sales begin and the declared completion as first published */
  release: number;
  ready: string;
  /** completion moved: from this day by this many months (several moves add up) */
  moves: { from: string; months: number }[];
  problem: boolean;
  className: string;
}

function demoObjects(plan: DemoPlan): DemoObject[] {
  const objects: DemoObject[] = [];
  plan.projects.forEach((p, i) => {
    const place = demoLocation(p.name) as { latitude?: number; longitude?: number } | undefined;
    p.buildings.slice(0, 3).forEach((b, j) => {
      const flats = p.flats.filter((f) => f.building === j).length;
      objects.push({
        objId: 70_000 + i * 10 + j,
        project: p.name,
        developer: p.developer,
        building: b.name,
        lat: place?.latitude !== undefined ? place.latitude + j * 0.0012 : null,
        lon: place?.longitude !== undefined ? place.longitude + j * 0.0015 : null,
        flats,
        release: b.releaseDay,
        ready: b.settlementDate,
        moves: [],
        problem: false,
        className: b.basePpm > 330_000 ? 'Бизнес' : 'Комфорт',
      });
    });
  });
  return objects;
}

/** The demo's registry answers, in day order (the registry's one door imports them). */
export function demoRegistryAnswers(plan: DemoPlan, until: string): SavedAnswer[] {
  const days = demoRegistryDays(until);
  const objects = demoObjects(plan);
  // the pioneer's first object moved twice (later), another's once earlier; one problem object
  const pioneer = objects.find((o) => o.developer === 'Пионер');
  if (pioneer && days.length > 4)
    pioneer.moves.push({ from: days[2], months: 6 }, { from: days[days.length - 2], months: 3 });
  const early = objects.find((o) => o.developer === 'Эталон');
  if (early && days.length > 3) early.moves.push({ from: days[3], months: -3 });
  const troubled = objects.find((o) => o.developer === 'ЛСР');
  if (troubled) troubled.problem = true;
  // a project of the registry we have no list of
  const [first] = objects;
  if (first)
    objects.push(
      {
        ...first,
        objId: 79_001,
        project: 'Речной берег',
        developer: 'Северстрой',
        building: '1',
        lat: 55.79,
        lon: 37.45,
        moves: [],
        problem: false,
      },
      {
        ...first,
        objId: 79_002,
        project: 'Речной берег',
        developer: 'Северстрой',
        building: '2',
        lat: 55.791,
        lon: 37.452,
        moves: [],
        problem: false,
      },
    );
  const out: SavedAnswer[] = [];
  for (const day of days) {
    const d = toDay(day);
    const seen = objects.filter((o) => o.release <= d);
    const readyOn = (o: DemoObject) =>
      o.moves.filter((m) => m.from <= day).reduce((r, m) => addMonths(r, m.months), o.ready);
    const list = {
      data: {
        total: seen.length,
        list: seen.map((o) => ({
          objId: o.objId,
          objCommercNm: o.objId % 3 === 0 ? `ЖК «${o.project}»` : o.project,
          objAddr: `г. Москва, ${o.project}, корп. ${o.building}`,
          latitude: o.lat,
          longitude: o.lon,
          objElemLivingCnt: o.objId % 2 ? String(o.flats) : o.flats,
          objReady100PercDt: o.objId % 4 === 1 ? quarterText(readyOn(o)) : readyOn(o),
          objPublDt: fromDay(o.release),
          objGuarantyEscrowFlg: o.objId % 2 ? true : 1,
          objProblemFlg: o.problem ? 1 : 0,
          objStatus: 0,
          rpdRegionCd: 77,
          developer: {
            devId: 900 + o.developer.length,
            shortName: `СЗ ${o.developer}`,
            groupName: `ГК ${o.developer}`,
          },
        })),
      },
    };
    out.push({ day, source: `демо ${day}: список`, raw: list, read: readAnswer(list) });
    for (const o of seen) {
      const ready = readyOn(o);
      const share = Math.min(
        0.97,
        Math.max(0, (d - o.release) / Math.max(1, toDay(o.ready) - o.release)) * 0.9,
      );
      const realised = Math.round(o.flats * share);
      const detail = {
        data: {
          objId: o.objId,
          nameObj: `Жилой дом, корпус ${o.building}`,
          objTransferPlanDt: addMonths(ready, 3),
          soldOutPerc: Math.round(share * 100),
          objLkClassDesc: o.className,
          objFlatCnt: o.flats,
          objReady100PercDt: ready,
          rpdPdfLink: `https://наш.дом.рф/сервисы/api/object/${o.objId}/declaration`,
        },
      };
      const sales = { data: { apartmentsAggData: { total: o.flats, realised, perc: share } } };
      out.push(
        { day, source: `демо ${day}: объект ${o.objId}`, raw: detail, read: readAnswer(detail) },
        { day, source: `демо ${day}: продажи ${o.objId}`, raw: sales, read: readAnswer(sales, o.objId) },
      );
    }
  }
  return out;
}
