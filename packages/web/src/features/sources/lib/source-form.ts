import { SOURCE_KINDS, type SourceInput, type SourceKind } from '@cena-metra/contract';

/** What the form holds: text as typed. */
export interface SourceForm {
  name: string;
  kind: SourceKind;
  url: string;
  /** one «Имя: значение» per line */
  headers: string;
  developer: string;
  project: string;
}

export const EMPTY_FORM: SourceForm = {
  name: '',
  kind: 'yrl',
  url: '',
  headers: '',
  developer: '',
  project: '',
};

export const KIND_LABELS: Record<SourceKind, string> = {
  'pik-api': 'API ПИК (постранично)',
  yrl: 'Фид Яндекс.Недвижимости (YRL, XML)',
  json: 'JSON (наш формат)',
  ndjson: 'NDJSON (наш формат)',
  csv: 'CSV (наш формат)',
  domrf: 'Реестр наш.дом.рф (регионы в place=)',
};

/**
 * The form's checks before it is sent, each naming its field (the server checks the same again), and the
 * request body when all pass.
 */
export function checkSourceForm(f: SourceForm): { problem: string } | { body: SourceInput } {
  const name = f.name.trim();
  if (!name) return { problem: 'Название: введите его' };
  if (name.length > 100) return { problem: 'Название: не длиннее 100 символов' };
  if (!(SOURCE_KINDS as readonly string[]).includes(f.kind)) return { problem: 'Вид: выберите из списка' };
  let url: URL;
  try {
    url = new URL(f.url.trim());
  } catch {
    return { problem: 'Адрес: введите адрес списка, например https://example.ru/feed.xml' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: 'Адрес: должен начинаться с http:// или https://' };
  const headers: Record<string, string> = {};
  for (const [i, line] of f.headers.split('\n').entries()) {
    if (!line.trim()) continue;
    const at = line.indexOf(':');
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (!key || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key))
      return { problem: `Заголовки: строка ${i + 1} — ожидается «Имя: значение»` };
    headers[key] = line.slice(at + 1).trim();
  }
  return {
    body: {
      name,
      kind: f.kind,
      url: f.url.trim(),
      headers,
      developer: f.developer.trim() || null,
      project: f.project.trim() || null,
    },
  };
}

const STATUS_LABELS: Record<string, string> = {
  running: 'идёт',
  done: 'собран',
  unchanged: 'без изменений',
  failed: 'ошибка',
  interrupted: 'прерван',
};

export const runStatusLabel = (status: string) => STATUS_LABELS[status] ?? status;
