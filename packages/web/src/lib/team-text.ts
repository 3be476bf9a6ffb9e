import { ROLE_LABELS, type Role } from '@cena-metra/contract';

/** A moment as a Russian reader reads it: 25.11.2026, 19:30. */
export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', { dateStyle: 'short', timeStyle: 'short' });

/** A session's device from its User-Agent: «Chrome, Windows»; the raw text when nothing is recognised. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /YaBrowser\//.test(userAgent)
      ? 'Яндекс Браузер'
      : /OPR\//.test(userAgent)
        ? 'Opera'
        : /Firefox\//.test(userAgent)
          ? 'Firefox'
          : /Chrom(e|ium)\//.test(userAgent)
            ? 'Chrome'
            : /Safari\//.test(userAgent)
              ? 'Safari'
              : /Telegram/i.test(userAgent)
                ? 'Telegram'
                : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser && !system) return userAgent.length > 60 ? `${userAgent.slice(0, 60)}…` : userAgent;
  return [browser, system].filter(Boolean).join(', ');
}

const FIELD_LABELS: Record<string, string> = {
  role: 'роль',
  disabled: 'отключён',
  enabled: 'включён',
  sessions: 'сеансов',
  name: 'название',
  url: 'адрес',
  kind: 'вид',
  status: 'итог',
  flats: 'квартир',
  date: 'дата',
};

function valueText(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (key === 'role' && typeof value === 'string' && value in ROLE_LABELS) return ROLE_LABELS[value as Role];
  if (typeof value === 'boolean') return value ? 'да' : 'нет';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * What an audit row changed, field by field: «роль: Аналитик → Наблюдатель»; a row with only an after
 * (something made or run) lists what it holds; a row with only a before (removed) says what was there.
 */
export function auditChange(before: unknown, after: unknown): string[] {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: string[] = [];
  for (const key of keys) {
    const label = FIELD_LABELS[key] ?? key;
    const was = valueText(key, b[key]);
    const now = valueText(key, a[key]);
    if (before && after) {
      if (was !== now) lines.push(`${label}: ${was} → ${now}`);
    } else lines.push(`${label}: ${after ? now : was}`);
  }
  return lines;
}
