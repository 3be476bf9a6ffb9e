import { createRandom } from 'cena-metra/dist/src/demo/random.js';
import type { Snapshot } from 'cena-metra/dist/src/ingest/snapshot.js';
import { validateSnapshot } from 'cena-metra/dist/src/ingest/snapshot.js';
import { fromDay, toDay } from 'cena-metra/dist/src/lib/days.js';

const FINISHES = ['без отделки', 'white box', 'с отделкой'];
const SETTLEMENTS = ['2026-03-31', '2026-06-30', '2026-12-31', '2027-09-30', null];

export interface MarketOptions {
  flats: number;
  /** consecutive days from `start`… */
  days?: number;
  start?: string;
  /** …or these dates (ascending), e.g. weekly then daily */
  dates?: string[];
  seed: number;
  developer?: string;
  project?: string;
  /** the project's place as the lists give it (DESIGN §11.3), on every list */
  location?: Record<string, unknown>;
}

interface Listing {
  id: number;
  building: string;
  section: string;
  floor: number;
  rooms: number;
  area: number;
  finish: string;
  settlementDate: string | null;
  price: number;
  /** about a tenth of real lots are reserved (DESIGN §10.2) */
  reserved: boolean;
}

/**
 * A busy project for the benchmark: `flats` flats on sale every day (sold ones replaced by new ones),
 * daily price changes on a few percent of them, and a little flicker (a flat missing for a day).
 */
export function* benchSnapshots(options: MarketOptions): Generator<Snapshot> {
  const random = createRandom(options.seed);
  let nextId = 1;
  const newListing = (): Listing => {
    const rooms = random.int(0, 4);
    const area = Math.round((22 + rooms * 17 + random.next() * 12) * 10) / 10;
    const building = String(1 + random.int(0, 9));
    return {
      id: nextId++,
      building,
      section: String(1 + random.int(0, 3)),
      floor: 2 + random.int(0, 24),
      rooms,
      area,
      finish: FINISHES[random.int(0, FINISHES.length - 1)],
      settlementDate: SETTLEMENTS[Number(building) % SETTLEMENTS.length],
      price: Math.round(area * (250_000 + random.int(0, 90_000))),
      reserved: random.next() < 0.1,
    };
  };
  const listings: Listing[] = Array.from({ length: options.flats }, newListing);
  const dates =
    options.dates ??
    Array.from({ length: options.days ?? 0 }, (_, d) => fromDay(toDay(options.start ?? '2023-01-01') + d));
  for (const date of dates) {
    for (let i = 0; i < listings.length; i++) {
      const r = random.next();
      if (r < 0.002) listings[i] = newListing();
      else if (r < 0.03) {
        const change = 1 + (random.next() < 0.6 ? 1 : -1) * (0.005 + random.next() * 0.04);
        listings[i].price = Math.round(listings[i].price * change);
      } else if (r < 0.033) listings[i].reserved = !listings[i].reserved;
    }
    const flats = listings
      .filter(() => random.next() >= 0.01)
      .map((l) => ({
        id: `F${l.id}`,
        building: l.building,
        section: l.section,
        floor: l.floor,
        number: String(l.id),
        rooms: l.rooms,
        area: l.area,
        finish: l.finish,
        settlementDate: l.settlementDate,
        price: l.price,
        status: l.reserved ? 'RESERVED' : 'AVAILABLE',
      }));
    yield validateSnapshot(
      {
        date,
        developer: options.developer ?? 'Бенчмарк',
        project: options.project ?? 'Большой проект',
        ...(options.location && { location: options.location }),
        flats,
      },
      { file: 'bench', at: date },
      'bench',
    );
  }
}

/** A CSV price list of one snapshot with `flats` rows, in the documented csv format. */
export function benchCsv(flats: number, date: string): string {
  const random = createRandom(7);
  const lines = [
    'date,developer,project,id,building,section,floor,number,rooms,area,finish,settlementDate,price,basePrice,status',
  ];
  for (let i = 1; i <= flats; i++) {
    const rooms = random.int(0, 4);
    const area = (22 + rooms * 17 + random.next() * 12).toFixed(1);
    const price = Math.round(Number(area) * (250_000 + random.int(0, 90_000)));
    const building = 1 + (i % 60);
    lines.push(
      `${date},Бенчмарк,Огромный проект,K${i},${building},${1 + (i % 4)},${2 + (i % 30)},${i},${rooms},${area},${FINISHES[i % 3]},${SETTLEMENTS[building % 4]},${price},,AVAILABLE`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Where the reference market's project `p` is (DESIGN §11.3): 85 regions of a city each, 12 districts a
 * city, a station in each district; coordinates scattered around the city's centre. Deterministic.
 */
export function benchLocation(p: number): Record<string, unknown> {
  const region = p % 85;
  const district = Math.floor(p / 85) % 12;
  const random = createRandom(90_000 + p);
  // the cities' centres spread over European Russia and beyond (43…68° N, 28…130° E)
  const lat = 43 + ((region * 7) % 25) + random.next() * 0.2;
  const lon = 28 + ((region * 37) % 102) + random.next() * 0.3;
  return {
    region: `Регион ${region + 1}`,
    city: `Город ${region + 1}`,
    district: `Район ${region + 1}-${district + 1}`,
    address: `ул. Строителей, ${1 + (p % 200)}`,
    latitude: Math.round(lat * 1e4) / 1e4,
    longitude: Math.round(lon * 1e4) / 1e4,
    stations: [{ name: `Станция ${region + 1}-${district + 1}`, minutes: 3 + (p % 25), mode: 'foot' }],
  };
}

/** The snapshot as POST /api/ingest/snapshots takes it (the importer's records back in the API's form). */
export function apiSnapshot(snapshot: Snapshot, location?: Record<string, unknown>) {
  return {
    date: snapshot.date,
    developer: snapshot.developer,
    project: snapshot.project,
    ...(location && { location }),
    flats: snapshot.flats.map((f) => ({
      id: f.externalId,
      building: f.rec.building,
      section: f.rec.section,
      floor: f.rec.floor,
      number: f.rec.number,
      rooms: f.rec.rooms,
      area: f.rec.area,
      finish: f.rec.facing, // facing codes pass through the normaliser
      settlementDate: f.rec.settlementDate,
      price: f.rec.price,
      ...(f.rec.status ? { status: f.rec.status } : {}),
    })),
  };
}
