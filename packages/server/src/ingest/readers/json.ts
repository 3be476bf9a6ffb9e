import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { printable } from '../snapshot.js';
import { looksLikePik, pikSnapshot } from './pik.js';
import { type Reader, type ReadItem, type ReadOptions, validated, withOverrides } from './types.js';

async function* read(path: string, options: ReadOptions): AsyncGenerator<ReadItem> {
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

/** Our own JSON (DESIGN §3.2): one snapshot or an array of them; a PIK API response is read as `pik`. */
export const jsonReader: Reader = { format: 'json', detect: () => true, read };
