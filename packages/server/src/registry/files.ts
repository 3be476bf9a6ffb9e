import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { isIsoDate } from '@cena-metra/contract';
import { type ReadAnswer, readAnswer } from './answers.js';

/**
 * The registry's answers as saved by a browser or a script (DESIGN §12.3, `import --format domrf`): a file
 * per answer as in ../shared/data/registry (`YYYY-MM-DD.list.json`, `YYYY-MM-DD.object-ID.json`,
 * `YYYY-MM-DD.object-ID.sales_agg.json`: the day and the object from the name), or NDJSON, a line per
 * answer: the answer itself or `{"day": "YYYY-MM-DD", "objId": n, "answer": {...}}` (day and object beside
 * it). A file's day is the line's, else the file name's, else `--date`.
 */
export interface SavedAnswer {
  day: string;
  /** where it came from: the file (and line), for the run's record */
  source: string;
  read: ReadAnswer | { error: string };
  /** the answer as it came, for the object's raw answers */
  raw: unknown;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A day that is one: YYYY-MM-DD of the calendar (a file named 2026-02-30 names none). */
const realDay = (v: string | undefined) => (v && DAY.test(v) && isIsoDate(v) ? v : undefined);

/** The day a file's name carries (2026-10-31.list.json → 2026-10-31), if any. */
const dayFromFileName = (path: string) => /(\d{4}-\d{2}-\d{2})/.exec(basename(path))?.[1];

function objIdFromName(path: string): number | undefined {
  const m = /object-(\d+)/.exec(basename(path));
  return m ? Number(m[1]) : undefined;
}

function answerOf(
  value: unknown,
  day: string | undefined,
  objId: number | undefined,
  source: string,
): SavedAnswer {
  let raw = value;
  let d = day;
  let id = objId;
  if (typeof value === 'object' && value !== null && 'answer' in value) {
    const envelope = value as { answer: unknown; day?: unknown; date?: unknown; objId?: unknown };
    raw = envelope.answer;
    const given = envelope.day ?? envelope.date;
    if (typeof given === 'string') d = realDay(given) ? given : undefined;
    if (typeof envelope.objId === 'number' && Number.isSafeInteger(envelope.objId)) id = envelope.objId;
  }
  const known = realDay(d);
  if (!known)
    return {
      day: '',
      source,
      raw,
      read: { error: `${source}: нет дня ответа — ГГГГ-ММ-ДД в имени файла, в day или в --date` },
    };
  return { day: known, source, raw, read: readAnswer(raw, id) };
}

/** The answers of one file. A line or file that is not JSON is an answer refused, not a throw. */
export async function* readRegistryFile(path: string, date?: string): AsyncGenerator<SavedAnswer> {
  const day = dayFromFileName(path) ?? date;
  const objId = objIdFromName(path);
  const name = basename(path);
  if (/\.(ndjson|jsonl)$/i.test(path)) {
    const lines = createInterface({
      input: createReadStream(path, { encoding: 'utf8' }),
      crlfDelay: Infinity,
    });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      const source = `${name}:${n}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        yield { day: day ?? '', source, raw: line, read: { error: `${source}: строка не JSON` } };
        continue;
      }
      yield answerOf(value, day, objId, source);
    }
    return;
  }
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    yield { day: day ?? '', source: name, raw: text, read: { error: `${name}: файл не JSON` } };
    return;
  }
  yield answerOf(value, day, objId, name);
}
