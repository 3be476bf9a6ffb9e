import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { printable } from '../snapshot.js';
import { type Reader, type ReadItem, type ReadOptions, validated, withOverrides } from './types.js';

/**
 * Snapshots of NDJSON lines, one a line, each validated (messages name the file and the line): the one
 * reading of NDJSON, for a file (streamed) and for an API body alike. `check` sees each parsed line first
 * (the API's text rules, http/edge.ts).
 */
export async function* ndjsonItems(
  lines: AsyncIterable<string> | Iterable<string>,
  file: string,
  source: string,
  options: ReadOptions = {},
  check?: (parsed: unknown) => string | null,
): AsyncGenerator<ReadItem> {
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
    const problem = check?.(parsed);
    if (problem) yield { errors: [`${file}: строка ${lineNo}: ${problem}`] };
    else yield validated(withOverrides(parsed, options), { file, at: `строка ${lineNo}` }, source);
  }
}

function read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  return ndjsonItems(lines, basename(path), 'ndjson', options);
}

/** One snapshot per line (`.ndjson`, `.jsonl`), streamed. */
export const ndjsonReader: Reader = {
  format: 'ndjson',
  detect: (path) => /\.(ndjson|jsonl)$/i.test(path),
  read,
};
