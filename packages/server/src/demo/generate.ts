import type { Facing } from '@cena-metra/contract';
import type { Snapshot } from '../ingest/snapshot.js';
import { fromDay, toDay } from '../lib/days.js';
import { demoLocation } from './places.js';
import { createRandom, hash01, type Random } from './random.js';

/** Developers in the id order the product promises (Пионер is id 5, the dashboard's default). */
export const DEMO_DEVELOPERS = ['ПИК', 'Самолет', 'Эталон', 'ЛСР', 'Пионер', 'Донстрой', 'MR Group', 'ФСК'];

const PROJECT_NAMES = [
  'Северный квартал',
  'Речной парк',
  'Липовая роща',
  'Сити-Юг',
  'Зелёный берег',
  'Невский простор',
  'Лесная гавань',
  'Береговой',
  'Символ города',
  'Первый дом',
  'Огни залива',
  'Театральный',
  'Солнечный бульвар',
  'Новые сады',
  'Парк легенд',
  'Тихий двор',
  'Высота',
  'Кварталы 21/19',
  'Сердце столицы',
  'Измайловские холмы',
  'Озёрный',
  'Метрополия',
  'Остров мечты',
  'Светлый мир',
  'Династия',
  'Летний сад',
  'Академический',
  'Звёздный',
];

export const DEMO_START = '2023-01-01';
export const DEMO_DAILY_FROM = '2025-07-01';

interface DemoFlat {
  id: string;
  building: number;
  section: number;
  floor: number;
  number: number;
  rooms: number;
  area: number;
  /** ppm multiplier of this lot relative to its building's base */
  lotFactor: number;
  saleDay: number;
  reserved: boolean;
  flickers: boolean;
}

interface DemoBuilding {
  name: string;
  releaseDay: number;
  settlementDate: string;
  facing: Facing;
  basePpm: number;
  /** day → cumulative index multiplier, stepping at indexations */
  indexSteps: { day: number; factor: number }[];
}

interface DemoProject {
  developer: string;
  name: string;
  buildings: DemoBuilding[];
  flats: DemoFlat[];
  /** flat cuts: flat index → [{ day, factor }] */
  cuts: Map<number, { day: number; factor: number }[]>;
  /** seasonal campaigns: a building's prices cut for a few weeks */
  campaigns: { building: number; from: number; to: number; factor: number }[];
  seed: number;
  /** days without a list (DESIGN §10.1: the dashboard shows them as «нет данных») */
  gap?: { from: number; to: number };
  /** from this day the list names buildings «Корпус N», as another source would (§10.3: one building) */
  renamedFrom?: number;
  /** on this day the scan caught a fifth of the list (§10.4: a partial scan) */
  partialOn?: number;
}

const ROOM_MIX: [number, number][] = [
  [0, 0.13],
  [1, 0.28],
  [2, 0.38],
  [3, 0.18],
  [4, 0.03],
];
const AREA: Record<number, [number, number]> = {
  0: [20, 28],
  1: [34, 44],
  2: [52, 64],
  3: [72, 90],
  4: [95, 125],
};
const ROOM_PPM: Record<number, number> = { 0: 1.14, 1: 1.06, 2: 1.0, 3: 0.96, 4: 0.93 };
const FACINGS: Facing[] = ['BLACK', 'WHITE', 'FINE_FINISHING', 'FINE_FINISHING', 'WHITE', 'FURNITURE'];

function pickRooms(r: Random): number {
  let x = r.next();
  for (const [rooms, share] of ROOM_MIX) {
    if (x < share) return rooms;
    x -= share;
  }
  return 2;
}

function quarterEnd(year: number, quarter: number): string {
  const month = quarter * 3;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${last}`;
}

/** The snapshot calendar: weekly from 1 Jan 2023 until 30 Jun 2025, daily after, through `until`. */
export function demoCalendar(until: string): number[] {
  const days: number[] = [];
  const end = toDay(until);
  const dailyFrom = toDay(DEMO_DAILY_FROM);
  for (let d = toDay(DEMO_START); d <= end; d = d < dailyFrom ? Math.min(d + 7, dailyFrom) : d + 1)
    days.push(d);
  return days;
}

function buildProject(
  developer: string,
  name: string,
  seed: number,
  start: number,
  end: number,
  scale: number,
): DemoProject {
  const r = createRandom(seed);
  const business = r.chance(0.3);
  const projectPpm = business ? r.between(450_000, 650_000) : r.between(250_000, 420_000);
  const targetFlats = Math.round(r.int(300, 2000) * scale);
  const buildingCount = r.int(2, 8);
  const span = end - start;
  const buildings: DemoBuilding[] = [];
  for (let b = 0; b < buildingCount; b++) {
    // the first buildings are on sale from the start; later ones are released over the history
    const releaseDay =
      b < Math.max(1, Math.floor(buildingCount / 2)) ? start : start + Math.floor(r.between(0.1, 0.9) * span);
    const year = new Date(releaseDay * 86_400_000).getUTCFullYear() + r.int(1, 3);
    const steps: { day: number; factor: number }[] = [{ day: releaseDay, factor: 1 }];
    let factor = 1;
    for (let d = releaseDay + 7; d <= end; d += 7) {
      if (r.chance(0.08)) {
        factor *= 1 + r.between(0.005, 0.02);
        steps.push({ day: d, factor });
      }
    }
    buildings.push({
      name: String(b + 1),
      releaseDay,
      settlementDate: quarterEnd(year, r.int(1, 4)),
      facing: r.pick(FACINGS),
      basePpm: projectPpm * r.between(0.94, 1.06),
      indexSteps: steps,
    });
  }
  const flats: DemoFlat[] = [];
  const perBuilding = Math.ceil(targetFlats / buildingCount);
  buildings.forEach((building, b) => {
    const sections = r.int(1, 4);
    const floors = r.int(9, 25);
    for (let i = 0; i < perBuilding; i++) {
      const rooms = pickRooms(r);
      const [amin, amax] = AREA[rooms];
      const floor = 2 + (i % (floors - 1));
      const section = 1 + (Math.floor(i / floors) % sections);
      // a lot sells some time after its building's release; a few stay unsold to the end
      const saleDay = building.releaseDay + Math.floor(r.between(20, 1100) * (rooms === 0 ? 0.7 : 1));
      flats.push({
        id: `${b + 1}-${section}-${i + 1}`,
        building: b,
        section,
        floor,
        number: i + 1,
        rooms,
        area: Math.round(r.between(amin, amax) * 10) / 10,
        lotFactor: ROOM_PPM[rooms] * (1 + (floor / floors) * 0.05) * r.between(0.96, 1.04),
        saleDay,
        reserved: r.chance(0.1),
        flickers: r.chance(0.03),
      });
    }
  });
  const cuts = new Map<number, { day: number; factor: number }[]>();
  const cutCount = Math.floor(flats.length * 0.15);
  for (let c = 0; c < cutCount; c++) {
    const i = r.int(0, flats.length - 1);
    const day = start + r.int(0, span);
    const list = cuts.get(i) ?? [];
    list.push({ day, factor: 1 - r.between(0.03, 0.1) });
    list.sort((a, b) => a.day - b.day);
    cuts.set(i, list);
  }
  const campaigns: DemoProject['campaigns'] = [];
  for (let d = start + r.int(30, 120); d < end; d += r.int(120, 240)) {
    campaigns.push({
      building: r.int(0, buildingCount - 1),
      from: d,
      to: d + r.int(7, 21),
      factor: 1 - r.between(0.02, 0.06),
    });
  }
  return { developer, name, buildings, flats, cuts, campaigns, seed };
}

function factorAt(steps: { day: number; factor: number }[], day: number): number {
  let f = 1;
  for (const s of steps) {
    if (s.day > day) break;
    f = s.factor;
  }
  return f;
}

function cutFactor(list: { day: number; factor: number }[] | undefined, day: number): number {
  if (!list) return 1;
  let f = 1;
  for (const c of list) if (c.day <= day) f *= c.factor;
  return f;
}

/**
 * What a demo flat is offered at beside its price (DESIGN §11.4): during a seasonal campaign, and for a
 * month after a flat's own cut, the price before them crossed out (a campaign also by its name); Пионер
 * prices a 100 % payment 3 % lower.
 */
function demoOffer(p: DemoProject, i: number, day: number, price: number, campaign: number) {
  const offer: Record<string, unknown> = {};
  // a flat's own cut shows its price before it, crossed out, for a month
  const cut = p.cuts.get(i)?.findLast((c) => c.day <= day && day - c.day < 30);
  const factor = campaign * (cut?.factor ?? 1);
  if (factor < 1) offer.oldPrice = Math.round(price / factor / 1000) * 1000;
  if (campaign < 1) offer.promo = `Сезонная скидка ${Math.round((1 - campaign) * 100)} %`;
  if (p.developer === 'Пионер') offer.offerPrices = { cash: Math.round((price * 0.97) / 1000) * 1000 };
  return offer;
}

/** One project's price list on one day, as a raw snapshot object (the import path validates it). */
function snapshotOf(p: DemoProject, day: number): Record<string, unknown> {
  const flats: Record<string, unknown>[] = [];
  // no list at all in a gap: an empty snapshot is skipped by the loader
  if (p.gap && day >= p.gap.from && day <= p.gap.to)
    return { date: fromDay(day), developer: p.developer, project: p.name, flats };
  const campaign = p.buildings.map(
    (_, b) => p.campaigns.find((c) => c.building === b && c.from <= day && day <= c.to)?.factor ?? 1,
  );
  const buildingFactor = p.buildings.map((b) => factorAt(b.indexSteps, day));
  // a building past its settlement date is delivered: the lists say so (§10.3: «Сдан»)
  const settlement = p.buildings.map((b) => (day > toDay(b.settlementDate) ? 'Дом сдан' : b.settlementDate));
  p.flats.forEach((f, i) => {
    const b = p.buildings[f.building];
    if (day < b.releaseDay || day >= f.saleDay) return;
    // about 3 % of lots flicker: now and then they vanish from a list for one snapshot and come back
    if (f.flickers && hash01(p.seed * 7919 + i, day) < 0.12) return;
    // a broken scan lists every fifth lot only
    if (day === p.partialOn && i % 5 !== 0) return;
    const ppm =
      b.basePpm *
      f.lotFactor *
      buildingFactor[f.building] *
      campaign[f.building] *
      cutFactor(p.cuts.get(i), day);
    const price = Math.round((ppm * f.area) / 1000) * 1000;
    flats.push({
      id: f.id,
      building: p.renamedFrom !== undefined && day >= p.renamedFrom ? `Корпус ${b.name}` : b.name,
      section: String(f.section),
      floor: f.floor,
      number: String(f.number),
      rooms: f.rooms,
      area: f.area,
      finish: b.facing,
      settlementDate: settlement[f.building],
      price,
      basePrice: Math.round((b.basePpm * f.lotFactor * buildingFactor[f.building] * f.area) / 1000) * 1000,
      status: f.reserved ? 'RESERVED' : 'AVAILABLE',
      ...demoOffer(p, i, day, price, campaign[f.building]),
    });
  });
  return {
    date: fromDay(day),
    developer: p.developer,
    project: p.name,
    location: demoLocation(p.name),
    flats,
  };
}

export interface DemoOptions {
  seed?: number;
  until: string;
  /** multiplies flats per project (tests use small values) */
  scale?: number;
  /** limits developers (tests) */
  developers?: number;
  /** first snapshot date (tests use a short history) */
  from?: string;
}

export interface DemoPlan {
  developers: string[];
  projects: DemoProject[];
  days: number[];
  /** raw snapshot objects of project p on calendar day index k */
  snapshot(p: number, k: number): Record<string, unknown>;
}

/** The whole demo market, deterministic for a seed: developers, projects and their daily price lists. */
export function planDemo(options: DemoOptions): DemoPlan {
  const seed = options.seed ?? 42;
  const r = createRandom(seed);
  const days = demoCalendar(options.until).filter((d) => !options.from || d >= toDay(options.from));
  const start = days[0];
  const end = days[days.length - 1];
  const developers = DEMO_DEVELOPERS.slice(0, options.developers ?? DEMO_DEVELOPERS.length);
  const names = [...PROJECT_NAMES];
  const projects: DemoProject[] = [];
  for (const developer of developers) {
    const count = r.int(2, 4);
    for (let i = 0; i < count; i++) {
      const name = names.splice(r.int(0, names.length - 1), 1)[0] ?? `Проект ${projects.length + 1}`;
      projects.push(buildProject(developer, name, r.int(1, 2 ** 31), start, end, options.scale ?? 1));
    }
  }
  // what real lists have (DESIGN §10): the default developer's first project had no list for six weeks of
  // 2024 and is listed by another source, naming buildings «Корпус N», from then on
  const pioneer = projects
    .filter((p) => p.developer === 'Пионер')
    .sort((a, b) => a.name.localeCompare(b.name, 'ru'))[0];
  const gapFrom = toDay('2024-04-01');
  if (pioneer && start < gapFrom && end > gapFrom + 60) {
    pioneer.gap = { from: gapFrom, to: toDay('2024-05-12') };
    pioneer.renamedFrom = toDay('2024-05-13');
  }
  // and one day's scan of it broke off after a fifth of the list (§10.4)
  const partialDay = days.find((d) => d >= toDay('2025-10-14'));
  if (pioneer && partialDay !== undefined && partialDay < end && partialDay - start > 60)
    pioneer.partialOn = partialDay;
  return { developers, projects, days, snapshot: (p, k) => snapshotOf(projects[p], days[k]) };
}

export type { Snapshot };
