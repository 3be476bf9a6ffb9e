import {
  decimalColumn,
  integerColumn,
  type MarketRow,
  PRICE_CLASS_LABELS,
  type Sheet,
  type SheetColumn,
  textColumn,
} from '@cena-metra/contract';

/** «Рынок»: projects or developers with the figures of their last day with data. */
export function marketSheet(rows: MarketRow[], view: 'projects' | 'developers'): Sheet<MarketRow> {
  const who: SheetColumn<MarketRow>[] =
    view === 'projects'
      ? [textColumn('Проект', (r) => r.name), textColumn('Застройщик', (r) => r.developerName)]
      : [textColumn('Застройщик', (r) => r.name), integerColumn('Проектов', (r) => r.projects)];
  return {
    name: view === 'projects' ? 'Проекты' : 'Застройщики',
    rows,
    columns: [
      ...who,
      { header: 'На дату', type: 'date', value: (r) => r.date, width: 12 },
      textColumn('Класс', (r) => (r.priceClass ? PRICE_CLASS_LABELS[r.priceClass] : null)),
      integerColumn('В продаже', (r) => r.stock),
      integerColumn('Новые за 30 дн.', (r) => r.new30),
      integerColumn('Выбыли за 30 дн.', (r) => r.gone30),
      decimalColumn('Вымываемость 30 дн., %', (r) => r.absorption),
      decimalColumn('Запас, мес.', (r) => r.monthsOfSupply),
      decimalColumn('Срок продажи, дн.', (r) => r.medianDaysOnMarket),
      decimalColumn('Ср. цена м², ₽', (r) => r.avgMeterPrice),
      decimalColumn('Индекс за период, %', (r) => r.indexChange),
    ],
  };
}
