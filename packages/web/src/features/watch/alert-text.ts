import { ALERT_KIND_LABELS, type Alert, formatChange, formatRoubles, roomsLabel } from '@cena-metra/contract';

/** An alert in one line: «Подешевела: 8 000 000 → 7 600 000 ₽ (−5,00 %)», with the flat for a segment. */
export function alertText(a: Alert, withFlat: boolean): string {
  const flat = withFlat
    ? `кв. № ${a.flatId}, ${roomsLabel(a.rooms)}, ${a.area.toLocaleString('ru-RU')} м² — `
    : '';
  const what = ALERT_KIND_LABELS[a.kind];
  if ((a.kind === 'PRICE_UP' || a.kind === 'PRICE_DOWN') && a.oldPrice !== null && a.newPrice !== null)
    return `${flat}${what}: ${formatRoubles(a.oldPrice)} → ${formatRoubles(a.newPrice)} ₽ (${formatChange(a.changePercent)})`;
  const price = a.newPrice ?? a.oldPrice;
  return `${flat}${what}${price === null ? '' : `, ${formatRoubles(price)} ₽`}`;
}

export const alertDay = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');
