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

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
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
      // «Заселение до 30 августа 2023», or «Дом сдан» / «Готовая квартира»: a delivered building (§10.3)
      settlementDate: v('move_in'),
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
