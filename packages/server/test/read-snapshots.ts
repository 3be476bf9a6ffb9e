import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { readFileSnapshots } from '../src/ingest/readers/index.js';
import type { ReadItem } from '../src/ingest/readers/types.js';

/** The committed fixtures' folder (trimmed excerpts of the real lists in ../shared). */
export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

/** A temporary folder for a test file's own inputs, removed after its tests. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The snapshots a file reads into (any reader), or the reader's errors thrown as one. */
export async function snapshotsOf(path: string, options = {}) {
  const out: ReadItem[] = [];
  for await (const item of readFileSnapshots(path, options)) out.push(item);
  return out.map((i) => {
    if (!('snapshot' in i)) throw new Error(i.errors.join('\n'));
    return i.snapshot;
  });
}

/** A YRL feed of 2026-11-20 around the given offers' XML, written to `path` (the readers' tests). */
export function writeYrlFeed(path: string, offers: string): string {
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?>
<realty-feed xmlns="http://webmaster.yandex.ru/schemas/feed">
  <generation-date>2026-11-20T06:00:00+03:00</generation-date>
${offers}
</realty-feed>`,
  );
  return path;
}
