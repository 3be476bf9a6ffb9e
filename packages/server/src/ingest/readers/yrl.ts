import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { SaxesParser } from 'saxes';
import { printable } from '../snapshot.js';
import { parseRoomsWord } from './pik-csv.js';
import { dateFromFileName, type Reader, type ReadItem, type ReadOptions, validated } from './types.js';

/**
 * The Yandex Realty feed (YRL, `<realty-feed>` of `<offer internal-id="…">` elements) that Russian
 * developers publish for classifieds (DESIGN §10.8). Streamed with saxes: the file is never held whole,
 * only the flats of the feed (grouped into one snapshot per developer and project).
 */

/** Why an offer is not a flat for sale: each is skipped and counted, not an error. */
export const SKIP_REASONS = {
  notSale: 'не продажа',
  notFlat: 'не квартира',
  secondary: 'вторичное жильё',
  sold: 'продана',
  landUnit: 'площадь не в м²',
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;

/** An offer as the feed gives it: the text of each leaf element by its path inside the offer. */
type Offer = Map<string, string>;

const SALE = new Set(['продажа', 'sale', 'sell']);
const FLAT = new Set(['квартира', 'flat', 'apartment', 'апартаменты', 'apartments']);
const TRUE = new Set(['1', 'true', 'да', 'yes', '+']);
const FALSE = new Set(['0', 'false', 'нет', 'no', '-']);
const AREA_UNITS = /^(кв\.?\s*м\.?|кв\.?\s*метр\w*|sq\.?\s*m\.?|м2|м²|m2)$/i;
const CURRENCIES = new Set(['RUB', 'RUR', 'РУБ', 'РУБ.']);

const lower = (v: string | undefined) => (v ?? '').trim().toLowerCase();

/** A YRL number: «5 500 000», «38,4», «38.40». */
function yrlNumber(v: string | undefined): number | string | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v.replace(/[\s\u00a0]/g, '').replace(',', '.'));
  return Number.isFinite(n) ? n : v;
}

/** The finish of `renovation` (and its variants) as our finish text, normalised later like any other. */
function yrlFinish(offer: Offer): string | undefined {
  const text = lower(offer.get('renovation') ?? offer.get('decoration') ?? offer.get('facing'));
  if (!text) return undefined;
  if (/мебел|furnish/.test(text)) return 'FURNITURE';
  if (/без отделки|черновая|rough/.test(text)) return 'BLACK';
  if (/предчистов|подчистов|white ?box|вайт ?бокс/.test(text)) return 'WHITE';
  if (/чистов|отделк|под ключ|дизайн|евро|ремонт|хорош|fine|turnkey/.test(text)) return 'FINE_FINISHING';
  return text;
}

/** Settlement: hand-over (сдан) → «Сдан»; ready-quarter + built-year → «N кв. YYYY»; built-year → «YYYY». */
function yrlSettlement(offer: Offer): string | null {
  const state = lower(offer.get('building-state'));
  if (state === 'hand-over' || state === 'сдан') return 'Сдан';
  const year = offer.get('built-year')?.trim();
  const quarter = offer.get('ready-quarter')?.trim();
  if (year && quarter) return `${quarter} кв. ${year}`;
  if (year) return year;
  return null;
}

const YRL_STATUS: Record<string, string> = {
  available: 'AVAILABLE',
  free: 'AVAILABLE',
  свободно: 'AVAILABLE',
  свободна: 'AVAILABLE',
  'в продаже': 'AVAILABLE',
  booked: 'RESERVED',
  reserved: 'RESERVED',
  reserve: 'RESERVED',
  бронь: 'RESERVED',
  забронировано: 'RESERVED',
  забронирована: 'RESERVED',
};
const SOLD = new Set(['sold', 'продано', 'продана', 'unavailable']);

/** Why this offer is not a flat for sale, or null when it is one. */
export function skipReason(offer: Offer): SkipReason | null {
  const type = lower(offer.get('type'));
  if (type && !SALE.has(type)) return 'notSale';
  const category = lower(offer.get('category'));
  if (category && !FLAT.has(category)) return 'notFlat';
  if (FALSE.has(lower(offer.get('new-flat')))) return 'secondary';
  const status = lower(offer.get('status') ?? offer.get('status-humanized'));
  if (SOLD.has(status)) return 'sold';
  const unit = offer.get('area/unit')?.trim();
  if (unit && !AREA_UNITS.test(unit)) return 'landUnit';
  return null;
}

/** One offer as a raw flat of §3.2 (validated later with the rest of its snapshot). */
export function offerFlat(offer: Offer): Record<string, unknown> {
  const area = yrlNumber(offer.get('area/value') ?? offer.get('area'));
  let price = yrlNumber(offer.get('price/value') ?? offer.get('price'));
  // a price given per m² is the flat's price divided by its area
  const priceUnit = offer.get('price/unit')?.trim();
  if (priceUnit && AREA_UNITS.test(priceUnit) && typeof price === 'number' && typeof area === 'number')
    price = Math.round(price * area);
  const currency = offer.get('price/currency')?.trim().toUpperCase();
  if (currency && !CURRENCIES.has(currency) && typeof price === 'number') price = `${price} ${currency}`;
  const studio = TRUE.has(lower(offer.get('studio')));
  const roomsText = offer.get('rooms')?.trim();
  const rooms = studio
    ? 0
    : roomsText
      ? parseRoomsWord(roomsText)
      : TRUE.has(lower(offer.get('open-plan')))
        ? 0
        : undefined;
  const status = lower(offer.get('status') ?? offer.get('status-humanized'));
  return {
    id: offer.get('@internal-id'),
    building:
      offer.get('building-section') ??
      offer.get('house/name') ??
      offer.get('building-name') ??
      offer.get('object/name'),
    section: offer.get('section') ?? offer.get('building-section-number') ?? null,
    floor: yrlNumber(offer.get('floor')),
    number: offer.get('apartment') ?? offer.get('flat-number') ?? offer.get('number') ?? null,
    rooms,
    area,
    finish: yrlFinish(offer),
    settlementDate: yrlSettlement(offer),
    price,
    status: status ? (YRL_STATUS[status] ?? status.toUpperCase()) : null,
    planUrl: offer.get('image@plan') ?? null,
  };
}

/** Developer and project of an offer: the source's overrides, else the feed's organisation and complex. */
function ownerOf(offer: Offer, options: ReadOptions) {
  return {
    developer:
      options.developer ??
      offer.get('sales-agent/organization') ??
      offer.get('sales-agent/name') ??
      offer.get('developer/name'),
    project: options.project ?? offer.get('building-name') ?? offer.get('object/name'),
  };
}

/** A station of an offer's `<location>`: `<metro>` or `<railway-station>`, its leaf texts by name. */
type RawStation = { kind: 'metro' | 'rail'; fields: Map<string, string> };

/**
 * The project's place from an offer's `<location>` (DESIGN §11.3) as a snapshot's raw `location`, validated
 * with the snapshot: region, locality → city, sub-locality (or district) → district, address, coordinates,
 * up to three stations with minutes on foot, else by transport. Undefined when the offer has none.
 */
export function offerLocation(offer: Offer, stations: RawStation[]): Record<string, unknown> | undefined {
  const get = (name: string) => offer.get(`location/${name}`);
  const location: Record<string, unknown> = {
    region: get('region'),
    city: get('locality-name'),
    district: get('sub-locality-name') ?? get('district'),
    address: get('address'),
    latitude: get('latitude'),
    longitude: get('longitude'),
    stations: stations.map((s) => {
      const foot = s.fields.get('time-on-foot');
      const transport = s.fields.get('time-on-transport');
      return {
        name: s.fields.get('name') ?? s.fields.get(''),
        minutes: foot ?? transport,
        mode: foot !== undefined ? 'foot' : transport !== undefined ? 'transport' : null,
        kind: s.kind,
      };
    }),
  };
  const given = Object.entries(location).some(([k, v]) =>
    k === 'stations' ? (v as unknown[]).length > 0 : v !== undefined,
  );
  return given ? location : undefined;
}

/** What a YRL feed holds: offers grouped by developer and project, the feed's date, skipped counts. */
export interface YrlFeed {
  date: string | undefined;
  groups: Map<
    string,
    {
      developer?: string;
      project?: string;
      flats: Record<string, unknown>[];
      lines: number[];
      /** the first `<location>` of the project's offers */
      location?: Record<string, unknown>;
    }
  >;
  skipped: Partial<Record<SkipReason, number>>;
  offers: number;
}

/** A tag's name without its namespace prefix (`yrl:offer` → `offer`). */
const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Streams a YRL document from text chunks: keeps only the leaf texts of the offer being read, so memory
 * holds the feed's flats, not its XML.
 */
export async function parseYrl(chunks: AsyncIterable<string>, options: ReadOptions): Promise<YrlFeed> {
  const parser = new SaxesParser({ position: true });
  const feed: YrlFeed = { date: undefined, groups: new Map(), skipped: {}, offers: 0 };
  let offer: Offer | null = null;
  let stations: RawStation[] = [];
  let station: RawStation | null = null;
  let offerLine = 0;
  const path: string[] = [];
  /** each open element's path joined with '/' (the offer's keys), kept as they open */
  const keys: string[] = [];
  let text = '';
  let error: Error | null = null;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (name === 'offer' && offer === null) {
      offer = new Map();
      offerLine = parser.line;
      const id = tag.attributes['internal-id'];
      if (typeof id === 'string') offer.set('@internal-id', id);
      path.length = 0;
      keys.length = 0;
      stations = [];
      return;
    }
    if (offer) {
      if (path.length === 1 && path[0] === 'location' && (name === 'metro' || name === 'railway-station'))
        station = { kind: name === 'metro' ? 'metro' : 'rail', fields: new Map() };
      // the flat's plan among its pictures: <image tag="plan"> (DESIGN §11.4)
      const step =
        name === 'image' && path.length === 0 && tag.attributes.tag === 'plan' ? 'image@plan' : name;
      keys.push(path.length ? `${keys[keys.length - 1]}/${step}` : step);
      path.push(step);
    }
    text = '';
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('cdata', (t) => {
    text += t;
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (offer === null) {
      if (name === 'generation-date' && !feed.date) feed.date = /^\d{4}-\d{2}-\d{2}/.exec(text.trim())?.[0];
      text = '';
      return;
    }
    if (name === 'offer' && path.length === 0) {
      feed.offers++;
      const reason = skipReason(offer);
      if (reason) feed.skipped[reason] = (feed.skipped[reason] ?? 0) + 1;
      else {
        const { developer, project } = ownerOf(offer, options);
        const key = `${lower(developer)}\u0001${lower(project)}`;
        let group = feed.groups.get(key);
        if (!group) {
          group = { developer, project, flats: [], lines: [] };
          feed.groups.set(key, group);
        }
        group.flats.push(offerFlat(offer));
        group.lines.push(offerLine);
        group.location ??= offerLocation(offer, stations);
      }
      offer = null;
      return;
    }
    const key = keys[keys.length - 1];
    const value = text.trim();
    if (station) {
      // a station's own text (<railway-station>Лианозово</railway-station>) under '', its leaves by name
      if (path.length === 2) {
        if (value) station.fields.set('', value);
        if (station.fields.size > 0) stations.push(station);
        station = null;
      } else if (value) station.fields.set(name, value);
    }
    // the first value of a path wins (a repeated <image> or <metro> says nothing we keep)
    if (value && !offer.has(key)) offer.set(key, value);
    // a leaf named by its own name too (price/value is also reachable as "value" only inside price)
    if (
      value &&
      path.length > 1 &&
      !offer.has(name) &&
      name !== 'value' &&
      name !== 'unit' &&
      name !== 'currency'
    )
      offer.set(name, value);
    path.pop();
    keys.pop();
    text = '';
  });
  for await (const chunk of chunks) {
    parser.write(chunk);
    if (error) break;
  }
  if (!error) parser.close();
  if (error) throw error;
  return feed;
}

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  let feed: YrlFeed;
  try {
    feed = await parseYrl(createReadStream(path, { encoding: 'utf8' }), options);
  } catch (error) {
    // saxes says «line:column: what»; the message names the place as every other reader does
    const message = printable((error as Error).message);
    const at = /^(\d+):(\d+): (.*)$/s.exec(message);
    yield {
      errors: [
        `${file}: ${at ? `строка ${at[1]}, позиция ${at[2]}: ` : ''}не удалось разобрать XML: ${at ? at[3] : message}`,
      ],
    };
    return;
  }
  const date = options.date ?? feed.date ?? dateFromFileName(path);
  if (!date)
    return yield {
      errors: [
        `${file}: date: укажите дату снимка (--date): в фиде нет generation-date, в имени файла нет даты`,
      ],
    };
  if (feed.groups.size === 0) {
    yield { errors: [`${file}: в фиде нет ни одной квартиры в продаже (${describeSkipped(feed)})`] };
    return;
  }
  for (const [key, group] of feed.groups) {
    // each group's raw offers are let go once validated: memory holds one form of the flats, not two
    feed.groups.delete(key);
    const item = validated(
      {
        date,
        developer: group.developer,
        project: group.project,
        flats: group.flats,
        location: group.location,
      },
      { file },
      'yrl',
      (i, field) =>
        `offer[internal-id=${String(group.flats[i]?.id ?? '?')}] (строка ${group.lines[i]})${field ? `.${field}` : ''}`,
    );
    yield 'snapshot' in item ? { ...item, skipped: feed.skipped } : item;
  }
}

/** «пропущено: не квартира 3, не продажа 1» — what the feed held besides flats for sale. */
export function describeSkipped(feed: Pick<YrlFeed, 'skipped' | 'offers'>): string {
  const parts = Object.entries(feed.skipped).map(([k, n]) => `${SKIP_REASONS[k as SkipReason]} ${n}`);
  return `предложений ${feed.offers}${parts.length ? `, пропущено: ${parts.join(', ')}` : ''}`;
}

export const yrlReader: Reader = {
  format: 'yrl',
  detect: (path, head) => /\.(xml|yrl)$/i.test(path) || /<realty-feed[\s>]/.test(head),
  read,
};
