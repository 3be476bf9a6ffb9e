import { EVENT_KIND_LABELS, facingLabel, roomsLabel } from './labels.js';
import type { PriceChange } from './market.js';
import type { SheetColumn } from './sheet.js';

/** The price changes' export (CSV and Excel), one column list for both. */
export const PRICE_CHANGE_COLUMNS: SheetColumn<PriceChange>[] = [
  { header: 'Дата', type: 'date', value: (r) => r.date, width: 12 },
  { header: 'Событие', type: 'text', value: (r) => EVENT_KIND_LABELS[r.kind] },
  { header: 'Застройщик', type: 'text', value: (r) => r.developerName },
  { header: 'Проект', type: 'text', value: (r) => r.projectName },
  { header: 'Квартира', type: 'integer', value: (r) => r.flatId },
  { header: 'Корпус', type: 'text', value: (r) => r.building },
  { header: 'Комнатность', type: 'text', value: (r) => roomsLabel(r.rooms) },
  { header: 'Площадь, м²', type: 'decimal', value: (r) => r.area },
  { header: 'Этаж', type: 'integer', value: (r) => r.floor },
  { header: 'Отделка', type: 'text', value: (r) => facingLabel(r.facing) },
  { header: 'Старая цена, ₽', type: 'integer', value: (r) => r.oldPrice },
  { header: 'Новая цена, ₽', type: 'integer', value: (r) => r.newPrice },
  { header: 'Изменение, %', type: 'decimal', value: (r) => r.changePercent },
  { header: 'Прежняя площадь, м²', type: 'decimal', value: (r) => r.oldArea },
];
