import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readCsvRecords, splitCsvRecord } from '../csv-parse.js';
import { csvHeader } from './csv.js';
import { dateFromFileName, type Reader, type ReadItem, type ReadOptions, validated } from './types.js';

const ROOM_WORDS: [RegExp, number][] = [
  [/^студи/i, 0],
  [/^одн/i, 1],
  [/^двух/i, 2],
  [/^тр[её]х/i, 3],
  [/^четыр[её]х/i, 4],
  [/^пяти/i, 5],
  [/^шести/i, 6],
];

/** «Трехкомнатная» → 3, «Студия» → 0. */
export function parseRoomsWord(text: string): number | string {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  for (const [re, n] of ROOM_WORDS) if (re.test(t)) return n;
  return t;
}

/** «13 806 240 ₽» → 13806240; «78,4» → 78.4; anything else is returned as is for validation to name. */
export function parseDisplayNumber(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  const t = text.replace(/[\s\u00a0\u202f₽]|руб\.?/g, '').replace(',', '.');
  if (t === '' || t === '-') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : text;
}

/** How the scrape says one gets to the metro: «walkingMan» on foot, «bus» (and the rest) by transport. */
const METRO_MODES: Record<string, 'foot' | 'transport'> = {
  walkingman: 'foot',
  walking: 'foot',
  bus: 'transport',
};

/**
 * The projects of the scrape from `projects.csv` beside it, by slug: the name (its `address` column) and
 * the place as a snapshot's raw `location` (the address and the nearest metro with its minutes, §11.3).
 */
export function projectsBeside(
  path: string,
): Map<string, { name: string; location: Record<string, unknown> }> {
  const projects = new Map<string, { name: string; location: Record<string, unknown> }>();
  const candidate = join(dirname(path), 'projects.csv');
  if (!existsSync(candidate) || !statSync(candidate).isFile()) return projects;
  const lines = readFileSync(candidate, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  const header = splitCsvRecord(lines[0] ?? '', ',');
  const column = (name: string) => header.indexOf(name);
  const iProject = column('project');
  const iAddress = column('address');
  if (iProject < 0 || iAddress < 0) return projects;
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const fields = splitCsvRecord(line, ',');
    const at = (i: number) => (i < 0 ? undefined : fields[i]?.trim() || undefined);
    const metro = at(column('metro_name'));
    const type = at(column('metro_type'))?.toLowerCase();
    projects.set(fields[iProject].replace(/^\//, ''), {
      name: fields[iAddress],
      location: {
        address: at(iAddress),
        stations: metro
          ? [
              {
                name: metro,
                minutes: at(column('metro_time')),
                mode: type ? (METRO_MODES[type] ?? 'transport') : null,
                kind: 'metro',
              },
            ]
          : [],
      },
    });
  }
  return projects;
}

/**
 * What the scrape's badges offer beside the price (DESIGN §11.4): `old_price` as a number is the crossed-out
 * price and `low_mortgage` as a number the mortgage price; as text («Цена 2020 года», «Ипотека 4,6%», what
 * the real scrape holds) they are the developer's promotion, kept as its text.
 */
export function scrapeOffer(oldPrice: string | undefined, lowMortgage: string | undefined) {
  const old = parseDisplayNumber(oldPrice);
  const mortgage = parseDisplayNumber(lowMortgage);
  const promo = [lowMortgage, oldPrice].filter(
    (t, i) => t !== undefined && typeof [mortgage, old][i] !== 'number',
  );
  return {
    oldPrice: typeof old === 'number' ? old : null,
    offerPrices: typeof mortgage === 'number' ? { mortgage } : null,
    promo: promo.length ? promo.join('; ') : null,
  };
}

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  const date = options.date ?? dateFromFileName(path);
  if (!date) {
    yield { errors: [`${file}: date: укажите дату снимка (--date) или назовите файл по дате`] };
    return;
  }
  const beside = projectsBeside(path);
  let columns: Map<string, number> | null = null;
  const groups = new Map<
    string,
    { flats: Record<string, unknown>[]; lines: number[]; location?: Record<string, unknown> }
  >();
  for await (const record of readCsvRecords(path)) {
    if (!columns) {
      columns = new Map(record.fields.map((name, i) => [name.trim(), i]));
      continue;
    }
    const v = (name: string) => {
      const i = columns!.get(name);
      const value = i === undefined ? undefined : record.fields[i]?.trim();
      return value === '' || value === '-' ? undefined : value;
    };
    const url = v('url') ?? '';
    const parts = url.split('/').filter(Boolean);
    const slug = parts[0] ?? '';
    const project = options.project ?? beside.get(slug)?.name ?? slug;
    const finishText = v('finish') ?? v('no_finish');
    const floor = v('floor')?.replace(/\s*этаж$/i, '');
    const section = v('section')?.replace(/^секция\s*/i, '');
    let group = groups.get(project);
    if (!group) {
      group = { flats: [], lines: [], location: beside.get(slug)?.location };
      groups.set(project, group);
    }
    group.flats.push({
      id: parts[parts.length - 1],
      building: v('building'),
      section,
      floor: floor === undefined ? undefined : parseDisplayNumber(floor),
      rooms: v('rooms') === undefined ? undefined : parseRoomsWord(v('rooms')!),
      area: parseDisplayNumber(v('area')),
      finish: finishText,
      // «Заселение до 30 августа 2023», or «Дом сдан» / «Готовая квартира»: a delivered building (§10.3)
      settlementDate: v('move_in'),
      price: parseDisplayNumber(v('price')),
      status: 'AVAILABLE',
      ...scrapeOffer(v('old_price'), v('low_mortgage')),
    });
    group.lines.push(record.line);
  }
  for (const [project, group] of groups) {
    yield validated(
      { date, developer: options.developer ?? 'ПИК', project, flats: group.flats, location: group.location },
      { file },
      'pik-csv',
      (i, field) => `строка ${group.lines[i]}: ${field}`,
    );
  }
}

/** The PIK site scrape: display strings, project names from `projects.csv` beside it. */
export const pikCsvReader: Reader = {
  format: 'pik-csv',
  detect: (path, head) => {
    if (!/\.csv$/i.test(path)) return false;
    const cols = csvHeader(head);
    return cols.includes('url') && cols.includes('location');
  },
  read,
};
