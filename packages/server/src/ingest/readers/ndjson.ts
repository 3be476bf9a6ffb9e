import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { printable } from '../snapshot.js';
import { type Reader, type ReadItem, type ReadOptions, validated, withOverrides } from './types.js';

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
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

/** One snapshot per line (`.ndjson`, `.jsonl`), streamed. */
export const ndjsonReader: Reader = {
  format: 'ndjson',
  detect: (path) => /\.(ndjson|jsonl)$/i.test(path),
  read,
};
