import { type MarketRow, PRICE_CLASS_LABELS, type Sheet, type SheetColumn } from '@cena-metra/contract';

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

/** «Рынок»: projects or developers with the figures of their last day with data. */
export function marketSheet(rows: MarketRow[], view: 'projects' | 'developers'): Sheet<MarketRow> {
  const who: SheetColumn<MarketRow>[] =
    view === 'projects'
      ? [text('Проект', (r) => r.name), text('Застройщик', (r) => r.developerName)]
      : [text('Застройщик', (r) => r.name), int('Проектов', (r) => r.projects)];
  return {
    name: view === 'projects' ? 'Проекты' : 'Застройщики',
    rows,
    columns: [
      ...who,
      { header: 'На дату', type: 'date', value: (r) => r.date, width: 12 },
      text('Класс', (r) => (r.priceClass ? PRICE_CLASS_LABELS[r.priceClass] : null)),
      int('В продаже', (r) => r.stock),
      int('Новые за 30 дн.', (r) => r.new30),
      int('Выбыли за 30 дн.', (r) => r.gone30),
      dec('Вымываемость 30 дн., %', (r) => r.absorption),
      dec('Запас, мес.', (r) => r.monthsOfSupply),
      dec('Срок продажи, дн.', (r) => r.medianDaysOnMarket),
      dec('Ср. цена м², ₽', (r) => r.avgMeterPrice),
      dec('Индекс за период, %', (r) => r.indexChange),
    ],
  };
}
