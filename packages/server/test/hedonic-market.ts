import { floorBandOf, type HedonicObservation } from '../src/analytics/hedonic.js';
import { createRandom } from '../src/demo/random.js';

/**
 * A generated market with planted prices (issue 45's proof): every flat's ln(price per m²) is a city's
 * level, its project's effect, the planted coefficients of its characteristics and its city's trend, plus a
 * flat's own persistent noise and a month's noise. The mix moves: cheap lots sell first, and a dear
 * project launches in `launchMonth` in the first city. Nothing here is fitted to the model.
 */

/** The planted coefficients, by code (see analytics/hedonic.ts: rooms group, floor band, finish, keys band). */
export const PLANTED = {
  rooms: [0.1, 0, -0.05, -0.1],
  floor: [0, -0.04, 0.03, 0],
  finish: [0, 0.04, 0.09, 0.12, 0.02],
  keys: [0.06, 0.04, 0.02, 0, -0.03, 0],
  lnArea: -0.2,
};

export interface MarketCity {
  /** the planted monthly change, e.g. 0.008 for +0.8 % a month */
  trend: number;
  level: number;
}

export interface PlantedFlat {
  city: number;
  project: number;
  flat: number;
  rooms: number;
  floor: number | null;
  area: number;
  roomGroup: number;
  floorBand: number;
  finish: number;
  /** months to keys at month 0 (the band follows the months left); null: unknown */
  keysAt0: number | null;
  /** ln ppm without the noise and the trend */
  planted: number;
  noise: number;
}

export interface GeneratedMarket {
  cities: MarketCity[];
  flats: PlantedFlat[];
  /** one per flat and month on sale */
  observations: (HedonicObservation & { city: number })[];
  /** the planted price of a flat in a month: no noise */
  plantedPrice(flat: PlantedFlat, month: number): number;
  keysBand(flat: PlantedFlat, month: number): number;
}

export function keysBandAt(keysAt0: number | null, month: number): number {
  if (keysAt0 === null) return 5;
  const left = keysAt0 - month;
  if (left <= 0) return 0;
  if (left <= 6) return 1;
  if (left <= 12) return 2;
  if (left <= 24) return 3;
  return 4;
}

export function generateMarket(options: {
  seed: number;
  months: number;
  cities: MarketCity[];
  projectsPerCity: number;
  flatsPerProject: number;
  launchMonth?: number;
  /** the flats' persistent noise and the month's noise (ln sd) */
  flatNoise?: number;
  monthNoise?: number;
}): GeneratedMarket {
  const random = createRandom(options.seed);
  const normal = () => {
    const u = Math.max(1e-12, random.next());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
  };
  const flatNoise = options.flatNoise ?? 0.02;
  const monthNoise = options.monthNoise ?? 0.005;
  const flats: PlantedFlat[] = [];
  const launch = new Map<number, number>();
  let projectId = 0;
  const addProject = (city: number, effect: number, flatsCount: number, from: number) => {
    const project = ++projectId;
    launch.set(project, from);
    const topFloor = random.int(9, 25);
    const keysAt0 = random.chance(0.15) ? null : random.int(-6, 40);
    for (let i = 0; i < flatsCount; i++) {
      const rooms = random.pick([0, 1, 1, 1, 2, 2, 2, 3, 3]);
      const area = [
        random.between(20, 28),
        random.between(34, 44),
        random.between(52, 64),
        random.between(72, 95),
      ][roomGroupIndex(rooms)];
      const floor = random.chance(0.05) ? null : random.int(1, topFloor);
      const roomGroup = roomGroupIndex(rooms);
      const floorBand = floorBandOf(floor, topFloor);
      const finish = random.pick([0, 0, 1, 1, 2, 3, 4]);
      const planted =
        options.cities[city].level +
        effect +
        PLANTED.rooms[roomGroup] +
        PLANTED.floor[floorBand] +
        PLANTED.finish[finish] +
        PLANTED.lnArea * Math.log(area);
      flats.push({
        city,
        project,
        flat: project * 10_000 + i,
        rooms,
        floor,
        area: Math.round(area * 10) / 10,
        roomGroup,
        floorBand,
        finish,
        keysAt0,
        planted,
        noise: flatNoise * normal(),
      });
    }
  };
  options.cities.forEach((_, city) => {
    for (let p = 0; p < options.projectsPerCity; p++)
      addProject(city, random.between(-0.2, 0.2), options.flatsPerProject, 0);
  });
  if (options.launchMonth !== undefined) addProject(0, 0.35, options.flatsPerProject, options.launchMonth);
  const keysOf = (f: PlantedFlat, month: number) => PLANTED.keys[keysBandAt(f.keysAt0, month)];
  const plantedLn = (f: PlantedFlat, month: number) =>
    f.planted + keysOf(f, month) + month * Math.log(1 + options.cities[f.city].trend);
  // cheap lots sell first: the cheapest third of a city's lots by planted ppm sells fastest
  const byCheapness = [...flats].sort((a, b) => a.planted - b.planted);
  const third = new Map(byCheapness.map((f, i) => [f.flat, Math.floor((3 * i) / byCheapness.length)]));
  const sold = new Set<number>();
  const observations: GeneratedMarket['observations'] = [];
  for (let month = 0; month < options.months; month++) {
    for (const f of flats) {
      if (sold.has(f.flat) || launch.get(f.project)! > month) continue;
      const ln = plantedLn(f, month) + f.noise + monthNoise * normal();
      observations.push({
        city: f.city,
        period: month,
        project: f.project,
        flat: f.flat,
        price: Math.round(Math.exp(ln) * f.area),
        area: f.area,
        roomGroup: f.roomGroup,
        floorBand: f.floorBand,
        finish: f.finish,
        keysBand: keysBandAt(f.keysAt0, month),
      });
      if (random.chance([0.1, 0.04, 0.01][third.get(f.flat)!])) sold.add(f.flat);
    }
  }
  return {
    cities: options.cities,
    flats,
    observations,
    plantedPrice: (f, month) => Math.exp(plantedLn(f, month)) * f.area,
    keysBand: (f, month) => keysBandAt(f.keysAt0, month),
  };
}

function roomGroupIndex(rooms: number): number {
  return Math.min(3, Math.max(0, rooms));
}

const FINISH_NAMES = ['BLACK', 'WHITE', 'FINE_FINISHING', 'FURNITURE'];
const iso = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const monthStart = (month: number) => Date.UTC(1970 + Math.floor(month / 12), month % 12, 1) / 86_400_000;

/**
 * The market as the price lists its projects publish: a list of each project on the 15th of each month it
 * sells (month 0 is `startMonth`, months since 1970), its city in the list's location. A flat's keys fall 10
 * days before the end of the month its months to keys count down to, so that the months left at a month's
 * end are those planted.
 */
export function marketLists(market: GeneratedMarket, startMonth: number, cityNames: readonly string[]) {
  const flats = new Map(market.flats.map((f) => [f.flat, f]));
  const byList = new Map<string, GeneratedMarket['observations']>();
  for (const o of market.observations) {
    const key = `${o.project}:${o.period}`;
    const list = byList.get(key);
    if (list) list.push(o);
    else byList.set(key, [o]);
  }
  return [...byList.values()].map((observations) => {
    const { project, period, city } = observations[0];
    return {
      date: iso(monthStart(startMonth + period) + 14),
      developer: `Застройщик ${project}`,
      project: `Проект ${project}`,
      location: { city: cityNames[city] },
      flats: observations.map((o) => {
        const f = flats.get(o.flat)!;
        return {
          id: String(f.flat),
          building: '1',
          ...(f.floor !== null && { floor: f.floor }),
          rooms: f.rooms,
          area: f.area,
          price: o.price,
          ...(f.finish < FINISH_NAMES.length && { finish: FINISH_NAMES[f.finish] }),
          ...(f.keysAt0 !== null && { settlementDate: iso(monthStart(startMonth + f.keysAt0 + 1) - 11) }),
        };
      }),
    };
  });
}
