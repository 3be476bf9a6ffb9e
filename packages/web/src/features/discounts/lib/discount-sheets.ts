import {
  type DiscountFlat,
  type DiscountProjectRow,
  facingLabel,
  roomsLabel,
  type Sheet,
  type SheetColumn,
} from '@cena-metra/contract';

// The exported tables (CSV and Excel from one column list each): what the page shows, typed.

const text = <R>(header: string, value: (r: R) => string | null): SheetColumn<R> => ({
  header,
  type: 'text',
  value,
});
const int = <R>(header: string, value: (r: R) => number | null): SheetColumn<R> => ({
  header,
  type: 'integer',
  value,
});
const dec = <R>(header: string, value: (r: R) => number | null): SheetColumn<R> => ({
  header,
  type: 'decimal',
  value,
});

/** «Скидки по проектам». */
export function discountProjectsSheet(rows: DiscountProjectRow[]): Sheet<DiscountProjectRow> {
  return {
    name: 'Скидки по проектам',
    rows,
    columns: [
      text('Проект', (r) => r.projectName),
      text('Застройщик', (r) => r.developerName),
      int('В продаже', (r) => r.activeFlats),
      int('Со скидкой', (r) => r.discountedFlats),
      dec('Макс. скидка, %', (r) => r.maxDiscountPercent),
      dec('Сред. скидка, %', (r) => r.avgDiscountPercent),
      dec('Сред. цена м², ₽', (r) => r.avgMeterPrice),
    ],
  };
}

/** A project's largest discounts, flat by flat. */
export function topDiscountsSheet(rows: DiscountFlat[]): Sheet<DiscountFlat> {
  return {
    name: 'Крупнейшие скидки',
    rows,
    columns: [
      int('Квартира', (r) => r.flatId),
      text('Корпус', (r) => r.building),
      text('Комнатность', (r) => roomsLabel(r.rooms)),
      dec('Площадь, м²', (r) => r.area),
      int('Этаж', (r) => r.floor),
      text('Отделка', (r) => facingLabel(r.facing)),
      int('Была, ₽', (r) => r.refPrice),
      int('Стала, ₽', (r) => r.price),
      dec('Скидка, %', (r) => r.discountPercent),
    ],
  };
}
