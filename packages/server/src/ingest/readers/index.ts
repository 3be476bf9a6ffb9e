import { createReadStream } from 'node:fs';
import { csvReader } from './csv.js';
import { jsonReader } from './json.js';
import { ndjsonReader } from './ndjson.js';
import { pikReader } from './pik.js';
import { pikCsvReader } from './pik-csv.js';
import type { Format, Reader, ReadItem, ReadOptions } from './types.js';
import { yrlReader } from './yrl.js';

export { pikSnapshot } from './pik.js';
export { parseDisplayNumber, parseRoomsWord } from './pik-csv.js';
export {
  dateFromFileName,
  FORMATS,
  type Format,
  type Reader,
  type ReadItem,
  type ReadOptions,
} from './types.js';

/**
 * Every reader, in the order `auto` asks them: the first whose `detect` says yes reads the file. A new
 * format is one file beside these and one line here.
 */
export const READERS: Reader[] = [ndjsonReader, pikCsvReader, csvReader, yrlReader, pikReader, jsonReader];

/** Picks the reader from the extension and, for JSON and CSV, the content. */
export function detectFormat(path: string, head: string): Exclude<Format, 'auto'> {
  return (READERS.find((r) => r.detect(path, head)) ?? jsonReader).format;
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
  yield* READERS.find((r) => r.format === format)!.read(path, options);
}
