import type { EventKind, SummaryProject } from '@cena-metra/contract';

export const KIND_ORDER: EventKind[] = ['PRICE_DOWN', 'PRICE_UP', 'NEW', 'REMOVED'];

export const KIND_LABELS: Record<EventKind, string> = {
  PRICE_DOWN: 'Подешевели',
  PRICE_UP: 'Подорожали',
  NEW: 'Новые в продаже',
  REMOVED: 'Сняты с продажи',
};

type SummaryEvent = SummaryProject['events'][number];

/** Events grouped by kind in the order above; kinds without events are left out. */
export function groupEvents(
  events: SummaryEvent[],
): { kind: EventKind; label: string; events: SummaryEvent[] }[] {
  return KIND_ORDER.map((kind) => ({
    kind,
    label: KIND_LABELS[kind],
    events: events.filter((e) => e.kind === kind),
  })).filter((g) => g.events.length > 0);
}

/** Colour of a change: cheaper is good news for a buyer (green), dearer is red. */
export function changeTone(percent: number | null): 'down' | 'up' | 'none' {
  if (percent === null || percent === 0) return 'none';
  return percent < 0 ? 'down' : 'up';
}

/** «−5,00 %», «+3,25 %» with a true minus sign. */
export function formatChange(percent: number | null): string {
  if (percent === null) return '—';
  const text = Math.abs(percent).toLocaleString('ru-RU', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${percent < 0 ? '−' : percent > 0 ? '+' : ''}${text}\u00a0%`;
}
