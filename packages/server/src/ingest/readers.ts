import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { readCsvRecords, splitCsvRecord } from './csv-parse.js';
import {
  type Origin,
  printable,
  type Snapshot,
  SnapshotValidationError,
  validateSnapshot,
} from './snapshot.js';

export const FORMATS = ['auto', 'json', 'ndjson', 'csv', 'pik', 'pik-csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReadOptions {
  format?: Format;
  /** snapshot date for sources without one (pik, pik-csv); else taken from the file name */
  date?: string;
  developer?: string;
  project?: string;
}

/** What a reader yields: a validated snapshot, or the messages that reject it. */
export type ReadItem = { snapshot: Snapshot } | { errors: string[] };

function validated(
  raw: unknown,
  origin: Origin,
  source: string,
  flatField?: (i: number, f: string) => string,
): ReadItem {
  try {
    return { snapshot: validateSnapshot(raw, origin, source, flatField) };
  } catch (error) {
    if (error instanceof SnapshotValidationError) return { errors: error.errors };
    throw error;
  }
}

function withOverrides(raw: unknown, options: ReadOptions): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const o = { ...(raw as Record<string, unknown>) };
  if (options.developer) o.developer = options.developer;
  if (options.project) o.project = options.project;
  if (options.date) o.date = options.date;
  return o;
}

/** The date a file name carries (2020-01-12T14-22.json → 2020-01-12), if any. */
export function dateFromFileName(path: string): string | undefined {
  return /(\d{4}-\d{2}-\d{2})/.exec(basename(path))?.[1];
}

function looksLikePik(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  const first = Array.isArray(o.flats) ? (o.flats[0] as Record<string, unknown> | undefined) : undefined;
  return o.date === undefined && !!first && typeof first === 'object' && 'block' in first && 'bulk' in first;
}

/** Picks the reader from the extension and, for JSON and CSV, the content. */
export function detectFormat(path: string, head: string): Exclude<Format, 'auto'> {
  const lower = path.toLowerCase();
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  if (lower.endsWith('.csv')) {
    const header = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
    const cols = splitCsvRecord(header, header.includes(';') ? ';' : ',').map((c) => c.trim());
    return cols.includes('url') && cols.includes('location') ? 'pik-csv' : 'csv';
  }
  if (/"block"\s*:/.test(head) && /"bulk"\s*:/.test(head) && !/"date"\s*:/.test(head.slice(0, 200)))
    return 'pik';
  return 'json';
}

async function* readJson(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    yield { errors: [`${file}: не удалось разобрать JSON: ${printable((error as Error).message)}`] };
    return;
  }
  if (Array.isArray(parsed)) {
    for (let i = 0; i < parsed.length; i++)
      yield validated(withOverrides(parsed[i], options), { file, at: `[${i}]` }, 'json');
  } else if (looksLikePik(parsed)) {
    yield pikSnapshot(parsed, path, options);
  } else yield validated(withOverrides(parsed, options), { file }, 'json');
}

async function* readNdjson(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    const text = lineNo === 1 ? line.replace(/^\uFEFF/, '') : line;
    if (!text.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      yield {
        errors: [
          `${file}: строка ${lineNo}: не удалось разобрать JSON: ${printable((error as Error).message)}`,
        ],
      };
      continue;
    }
    yield validated(withOverrides(parsed, options), { file, at: `строка ${lineNo}` }, 'ndjson');
  }
}

const CSV_COLUMNS = [
  'date',
  'developer',
  'project',
  'id',
  'building',
  'section',
  'floor',
  'number',
  'rooms',
  'area',
  'finish',
  'settlementDate',
  'price',
  'basePrice',
  'status',
] as const;
const REQUIRED_CSV = ['date', 'developer', 'project', 'id', 'building', 'rooms', 'area', 'price'];

async function* readCsv(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  let columns: Map<string, number> | null = null;
  const groups = new Map<string, { raw: Record<string, unknown> & { flats: unknown[] }; lines: number[] }>();
  for await (const record of readCsvRecords(path)) {
    if (!columns) {
      columns = new Map(record.fields.map((name, i) => [name.trim(), i]));
      const missing = REQUIRED_CSV.filter(
        (c) =>
          !columns!.has(c) &&
          !(c === 'date' && options.date) &&
          !(c === 'developer' && options.developer) &&
          !(c === 'project' && options.project),
      );
      if (missing.length) {
        yield { errors: [`${file}: строка 1: нет обязательных столбцов: ${missing.join(', ')}`] };
        return;
      }
      continue;
    }
    const value = (name: string) => {
      const i = columns!.get(name);
      if (i === undefined) return undefined;
      const v = record.fields[i]?.trim();
      return v === '' ? undefined : v;
    };
    const row: Record<string, unknown> = {};
    for (const c of CSV_COLUMNS) row[c] = value(c);
    const date = options.date ?? (row.date as string | undefined) ?? '';
    const developer = options.developer ?? (row.developer as string | undefined) ?? '';
    const project = options.project ?? (row.project as string | undefined) ?? '';
    const key = `${date}\u0001${developer.trim().toLowerCase()}\u0001${project.trim().toLowerCase()}`;
    let group = groups.get(key);
    if (!group) {
      group = { raw: { date, developer, project, flats: [] }, lines: [] };
      groups.set(key, group);
    }
    const { date: _d, developer: _dv, project: _p, ...flat } = row;
    group.raw.flats.push(flat);
    group.lines.push(record.line);
  }
  if (!columns) {
    yield { errors: [`${file}: файл пуст`] };
    return;
  }
  // each group is released before it is yielded: the raw rows must not outlive their validation
  const pending = [...groups.values()];
  groups.clear();
  while (pending.length) {
    const group = pending.shift()!;
    const item = validated(group.raw, { file }, 'csv', (i, field) => `строка ${group.lines[i]}: ${field}`);
    group.raw.flats.length = 0;
    yield item;
  }
}

// --- PIK developer API responses ---

interface PikFlat {
  id?: unknown;
  status?: unknown;
  rooms?: unknown;
  floor?: unknown;
  number?: unknown;
  price?: unknown;
  area?: unknown;
  finish?: { isFinish?: boolean; whiteBox?: boolean } | null;
  furniture?: unknown;
  block?: { name?: unknown } | null;
  bulk?: { name?: unknown; title?: unknown; settlement_year?: unknown } | null;
  section?: { number?: unknown } | null;
}

const PIK_STATUS: Record<string, string> = { free: 'AVAILABLE', reserve: 'RESERVED' };

/** PIK's finish flags → our finish text (normalised later like any other). */
function pikFinish(f: PikFlat): string {
  if (f.furniture === true) return 'FURNITURE';
  if (f.finish?.whiteBox) return 'WHITE';
  if (f.finish?.isFinish) return 'FINE_FINISHING';
  if (f.finish && f.finish.isFinish === false) return 'BLACK';
  return 'UNKNOWN';
}

/** Maps a raw PIK flats API response (DESIGN §3.2) to a snapshot; developer «ПИК», project = block.name. */
export function pikSnapshot(response: unknown, path: string, options: ReadOptions): ReadItem {
  const file = basename(path);
  const date = options.date ?? dateFromFileName(path);
  if (!date) return { errors: [`${file}: date: укажите дату снимка (--date) или назовите файл по дате`] };
  const body = response as { flats?: unknown };
  if (!Array.isArray(body?.flats))
    return { errors: [`${file}: flats: ответ PIK должен содержать массив flats`] };
  const flats = (body.flats as PikFlat[]).map((f) => ({
    id: f.id,
    building: f.bulk?.title ?? f.bulk?.name,
    section: f.section?.number ?? null,
    floor: f.floor,
    number: f.number,
    rooms: f.rooms === 'studio' ? 0 : f.rooms,
    area: f.area,
    finish: pikFinish(f),
    // PIK writes 0 when a building has no settlement year yet
    settlementDate: f.bulk?.settlement_year ? f.bulk.settlement_year : null,
    price: f.price,
    status: typeof f.status === 'string' ? (PIK_STATUS[f.status] ?? f.status) : f.status,
  }));
  const project = options.project ?? (body.flats as PikFlat[])[0]?.block?.name;
  return validated({ date, developer: options.developer ?? 'ПИК', project, flats }, { file }, 'pik');
}

async function* readPik(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    yield {
      errors: [`${basename(path)}: не удалось разобрать JSON: ${printable((error as Error).message)}`],
    };
    return;
  }
  yield pikSnapshot(parsed, path, options);
}

// --- PIK site scrape (display strings) ---

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

function projectNamesBeside(path: string): Map<string, string> {
  const names = new Map<string, string>();
  const candidate = join(dirname(path), 'projects.csv');
  if (!existsSync(candidate) || !statSync(candidate).isFile()) return names;
  const lines = readFileSync(candidate, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  const header = splitCsvRecord(lines[0] ?? '', ',');
  const iProject = header.indexOf('project');
  const iAddress = header.indexOf('address');
  if (iProject < 0 || iAddress < 0) return names;
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const fields = splitCsvRecord(line, ',');
    names.set(fields[iProject].replace(/^\//, ''), fields[iAddress]);
  }
  return names;
}

/** «Дом сдан», «Готовая квартира»: the building is already delivered, so there is no settlement date ahead. */
function completedText(text: string | undefined): string | undefined {
  if (text && /^(дом сдан|готов)/i.test(text.trim())) return undefined;
  return text;
}

async function* readPikCsv(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const file = basename(path);
  const date = options.date ?? dateFromFileName(path);
  if (!date) {
    yield { errors: [`${file}: date: укажите дату снимка (--date) или назовите файл по дате`] };
    return;
  }
  const names = projectNamesBeside(path);
  let columns: Map<string, number> | null = null;
  const groups = new Map<string, { flats: Record<string, unknown>[]; lines: number[] }>();
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
    const project = options.project ?? names.get(slug) ?? slug;
    const finishText = v('finish') ?? v('no_finish');
    const floor = v('floor')?.replace(/\s*этаж$/i, '');
    const section = v('section')?.replace(/^секция\s*/i, '');
    let group = groups.get(project);
    if (!group) {
      group = { flats: [], lines: [] };
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
      settlementDate: completedText(v('move_in')),
      price: parseDisplayNumber(v('price')),
      status: 'AVAILABLE',
    });
    group.lines.push(record.line);
  }
  for (const [project, group] of groups) {
    yield validated(
      { date, developer: options.developer ?? 'ПИК', project, flats: group.flats },
      { file },
      'pik-csv',
      (i, field) => `строка ${group.lines[i]}: ${field}`,
    );
  }
}

async function head(path: string): Promise<string> {
  const stream = createReadStream(path, { encoding: 'utf8', start: 0, end: 4095 });
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/** Reads one file with the given or detected format, yielding each snapshot or its errors. */
export async function* readFileSnapshots(path: string, options: ReadOptions = {}): AsyncGenerator<ReadItem> {
  const format =
    !options.format || options.format === 'auto' ? detectFormat(path, await head(path)) : options.format;
  switch (format) {
    case 'json':
      yield* readJson(path, options);
      break;
    case 'ndjson':
      yield* readNdjson(path, options);
      break;
    case 'csv':
      yield* readCsv(path, options);
      break;
    case 'pik':
      yield* readPik(path, options);
      break;
    case 'pik-csv':
      yield* readPikCsv(path, options);
      break;
  }
}
