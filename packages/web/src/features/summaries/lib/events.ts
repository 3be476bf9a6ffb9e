import type { EventKind, SummaryProject } from '@cena-metra/contract';

export const KIND_ORDER: EventKind[] = [
  'PRICE_DOWN',
  'PRICE_UP',
  'NEW',
  'REMOVED',
  'AREA_CHANGED',
  'PROMO_STARTED',
  'PROMO_ENDED',
];

export const KIND_LABELS: Record<EventKind, string> = {
  PRICE_DOWN: 'Подешевели',
  PRICE_UP: 'Подорожали',
  NEW: 'Новые в продаже',
  REMOVED: 'Сняты с продажи',
  AREA_CHANGED: 'Изменилась площадь',
  PROMO_STARTED: 'Началась акция',
  PROMO_ENDED: 'Закончилась акция',
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

/** A day's promotions (§11.4): flats whose promotion or crossed-out price appeared / went; «0» for none. */
export const promoText = (started: number, ended: number) =>
  started + ended === 0 ? '0' : `+${started} / −${ended}`;
