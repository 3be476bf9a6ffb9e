import {
  type DiscountFlat,
  type DiscountProjectRow,
  decimalColumn,
  facingLabel,
  integerColumn,
  roomsLabel,
  type Sheet,
  textColumn,
} from '@cena-metra/contract';

/** «Скидки по проектам». */
export function discountProjectsSheet(rows: DiscountProjectRow[]): Sheet<DiscountProjectRow> {
  return {
    name: 'Скидки по проектам',
    rows,
    columns: [
      textColumn('Проект', (r) => r.projectName),
      textColumn('Застройщик', (r) => r.developerName),
      integerColumn('В продаже', (r) => r.activeFlats),
      integerColumn('Со скидкой', (r) => r.discountedFlats),
      decimalColumn('Макс. скидка, %', (r) => r.maxDiscountPercent),
      decimalColumn('Сред. скидка, %', (r) => r.avgDiscountPercent),
      decimalColumn('Сред. цена м², ₽', (r) => r.avgMeterPrice),
    ],
  };
}

/** A project's largest discounts, flat by flat. */
export function topDiscountsSheet(rows: DiscountFlat[]): Sheet<DiscountFlat> {
  return {
    name: 'Крупнейшие скидки',
    rows,
    columns: [
      integerColumn('Квартира', (r) => r.flatId),
      textColumn('Корпус', (r) => r.building),
      textColumn('Комнатность', (r) => roomsLabel(r.rooms)),
      decimalColumn('Площадь, м²', (r) => r.area),
      integerColumn('Этаж', (r) => r.floor),
      textColumn('Отделка', (r) => facingLabel(r.facing)),
      integerColumn('Была, ₽', (r) => r.refPrice),
      integerColumn('Стала, ₽', (r) => r.price),
      decimalColumn('Скидка, %', (r) => r.discountPercent),
    ],
  };
}
