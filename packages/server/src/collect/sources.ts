import {
  CONTROL_CHARACTERS_MESSAGE,
  hasControlCharacters,
  SOURCE_KINDS,
  type SourceKind,
  sourceHeaderProblem,
} from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import {
  deleteSourceRow,
  getSource,
  insertSource,
  type Source,
  type SourceFields,
  saveSource,
  sourceNameTaken,
} from '../db/queries/sources.js';
import { BadRequestError } from '../lib/errors.js';
import { checkedAddresses, defaultPolicy, ForbiddenAddressError } from './address-guard.js';
import { LOCAL_PROTOCOL } from './local-feeds.js';

/** The mark shown for a secret: a URL's user-info, a header's value. */
export const SECRET_MARK = '***';

/**
 * A source's URL as shown and audited (DESIGN §12.1): its user-info (`user:password@`) is a secret like its
 * headers — stored and used, shown as `***@`.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = SECRET_MARK;
  parsed.password = '';
  return parsed.toString();
}

/**
 * The URL to store when a source is changed: a URL whose user-info is still the shown `***` (the form
 * sends back what it showed) keeps the stored user-info; anything else is taken as given.
 */
export function keptSecretUrl(given: string, stored: string): string {
  let next: URL;
  let before: URL;
  try {
    next = new URL(given);
    before = new URL(stored);
  } catch {
    return given;
  }
  if (next.username !== SECRET_MARK || next.password) return given;
  next.username = before.username;
  next.password = before.password;
  return next.toString();
}

/** What the audit log keeps of a source: its headers by name only and its URL without user-info. */
export const loggedSource = (s: Source) => ({
  name: s.name,
  kind: s.kind,
  url: shownUrl(s.url),
  developer: s.developer,
  project: s.project,
  enabled: s.enabled,
  headers: Object.keys(s.headers),
});

export interface SourceInput {
  name: string;
  kind: string;
  url: string;
  headers?: Record<string, string>;
  developer?: string | null;
  project?: string | null;
  enabled?: boolean;
}

/** A source as checked: the fields stored, `enabled` when given. */
export type CheckedSource = Omit<SourceFields, 'enabled'> & { enabled?: boolean };

/** The checks of a source, each naming its field: a 400, never a database error. */
export function checkSource(
  input: SourceInput,
  /** this server's own feed (`local:`), made by the code that publishes it */
  local = false,
): CheckedSource {
  const name = input.name?.trim();
  if (!name) throw new BadRequestError('name: укажите название источника');
  if (name.length > 100) throw new BadRequestError('name: не длиннее 100 символов');
  if (hasControlCharacters(name)) throw new BadRequestError(`name: ${CONTROL_CHARACTERS_MESSAGE}`);
  // the URL parser drops tabs and line breaks silently: what was typed must be what is stored
  if (hasControlCharacters(input.url)) throw new BadRequestError(`url: ${CONTROL_CHARACTERS_MESSAGE}`);
  if (!(SOURCE_KINDS as readonly string[]).includes(input.kind))
    throw new BadRequestError(`kind: допустимо ${SOURCE_KINDS.join(', ')} (получено «${input.kind}»)`);
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new BadRequestError(`url: не адрес (получено «${input.url}»)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && !(local && url.protocol === LOCAL_PROTOCOL))
    throw new BadRequestError('url: адрес должен начинаться с http:// или https://');
  if (input.url.length > 2000) throw new BadRequestError('url: не длиннее 2000 символов');
  const headers = input.headers ?? {};
  for (const [k, v] of Object.entries(headers)) {
    const problem = sourceHeaderProblem(k);
    if (problem) throw new BadRequestError(problem);
    if (hasControlCharacters(v)) throw new BadRequestError(`headers: «${k}»: ${CONTROL_CHARACTERS_MESSAGE}`);
  }
  for (const field of ['developer', 'project'] as const) {
    const v = input[field];
    if (v != null && v.trim().length > 200) throw new BadRequestError(`${field}: не длиннее 200 символов`);
    if (v != null && hasControlCharacters(v))
      throw new BadRequestError(`${field}: ${CONTROL_CHARACTERS_MESSAGE}`);
  }
  return {
    ...input,
    kind: input.kind as SourceKind,
    name,
    headers,
    developer: input.developer?.trim() || null,
    project: input.project?.trim() || null,
  };
}

/** «Authorization: Bearer x» → ['Authorization', 'Bearer x'] (the CLI's --header K:V). */
export function parseHeader(text: string): [string, string] {
  const at = text.indexOf(':');
  if (at <= 0) throw new BadRequestError(`--header: ожидается «Имя: значение» (получено «${text}»)`);
  return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

/**
 * Whether a source's address leads outside the network (DESIGN §11.5): a 400 naming `url` when it does
 * not. This server's own feeds (`local:`) are made only by the code that publishes them (`trusted`).
 */
async function checkAddress(url: string, trusted: boolean): Promise<void> {
  if (trusted && url.startsWith(LOCAL_PROTOCOL)) return;
  try {
    await checkedAddresses(url, defaultPolicy(), 'url');
  } catch (error) {
    if (error instanceof ForbiddenAddressError) throw new BadRequestError(error.message);
    throw error;
  }
}

export async function addSource(db: Db, input: SourceInput, trusted = false): Promise<Source> {
  const s = checkSource(input, trusted);
  await checkAddress(s.url, trusted);
  if (await sourceNameTaken(db, s.name)) throw new BadRequestError(`name: источник «${s.name}» уже есть`);
  return insertSource(db, { ...s, enabled: s.enabled ?? true });
}

export async function updateSource(db: Db, id: number, patch: Partial<SourceInput>): Promise<Source> {
  const current = await getSource(db, id);
  const url = patch.url === undefined ? current.url : keptSecretUrl(patch.url, current.url);
  const s = checkSource({ ...current, ...patch, url }, current.url.startsWith(LOCAL_PROTOCOL));
  if (s.url !== current.url) await checkAddress(s.url, false);
  if (s.name.toLowerCase() !== current.name.toLowerCase()) {
    if (await sourceNameTaken(db, s.name, id))
      throw new BadRequestError(`name: источник «${s.name}» уже есть`);
  }
  return saveSource(db, id, { ...s, enabled: s.enabled ?? current.enabled });
}

export async function removeSource(db: Db, id: number): Promise<void> {
  await getSource(db, id);
  await deleteSourceRow(db, id);
}
