import { basename } from 'node:path';
import { type Origin, type Snapshot, SnapshotValidationError, validateSnapshot } from '../snapshot.js';

/** Every format a snapshot file may be in; `auto` picks by the file's name and first bytes. */
export const FORMATS = ['auto', 'json', 'ndjson', 'csv', 'pik', 'pik-csv', 'yrl'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReadOptions {
  format?: Format;
  /** snapshot date for sources without one (pik, pik-csv, a yrl feed without generation-date); else the file name's */
  date?: string;
  developer?: string;
  project?: string;
}

/**
 * What a reader yields: a validated snapshot, or the messages that reject it. A feed that also lists what
 * is not a flat for sale (YRL: houses, rentals, sold lots) says how many of each it skipped.
 */
export type ReadItem =
  | { snapshot: Snapshot; skipped?: Partial<Record<string, number>> }
  | { errors: string[] };

export function validated(
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

export function withOverrides(raw: unknown, options: ReadOptions): unknown {
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

/**
 * One snapshot format: whether a file is in it (from its name and first 4 KB), and the file read as a
 * stream of validated snapshots or the messages that reject them (each naming the file, place and field).
 */
export interface Reader {
  format: Exclude<Format, 'auto'>;
  detect(path: string, head: string): boolean;
  read(path: string, options: ReadOptions): AsyncGenerator<ReadItem>;
}
