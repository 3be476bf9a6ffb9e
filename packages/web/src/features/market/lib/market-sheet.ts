import {
  decimalColumn,
  integerColumn,
  type MarketRow,
  PLACE_GROUP_LABELS,
  type PlaceGroup,
  PRICE_CLASS_LABELS,
  placeParentLabel,
  type Sheet,
  type SheetColumn,
  stationText,
  textColumn,
} from '@cena-metra/contract';
import type { MarketView } from './market-table';

/** A project's place as the export's columns (DESIGN §11.3: the exports carry the place). */
const PLACE_COLUMNS: SheetColumn<MarketRow>[] = [
  textColumn('Регион', (r) => r.place?.region ?? null),
  textColumn('Город', (r) => r.place?.city ?? null),
  textColumn('Район', (r) => r.place?.district ?? null),
  textColumn('Адрес', (r) => r.place?.address ?? null),
  textColumn('Станции', (r) => r.place?.stations.map(stationText).join('; ') || null),
  decimalColumn('Широта', (r) => r.place?.latitude ?? null),
  decimalColumn('Долгота', (r) => r.place?.longitude ?? null),
];

/** «Рынок»: projects, developers or places with the figures of their last day with data. */
export function marketSheet(
  rows: MarketRow[],
  view: MarketView,
  by: PlaceGroup = 'district',
): Sheet<MarketRow> {
  const who: SheetColumn<MarketRow>[] =
    view === 'projects'
      ? [
          textColumn('Проект', (r) => r.name),
          textColumn('Застройщик', (r) => r.developerName),
          ...PLACE_COLUMNS,
        ]
      : view === 'developers'
        ? [textColumn('Застройщик', (r) => r.name), integerColumn('Проектов', (r) => r.projects)]
        : [
            textColumn(PLACE_GROUP_LABELS[by], (r) => r.name),
            integerColumn('Проектов', (r) => r.projects),
            ...(placeParentLabel(by)
              ? [textColumn<MarketRow>(placeParentLabel(by)!, (r) => r.parent || null)]
              : []),
          ];
  return {
    name: view === 'projects' ? 'Проекты' : view === 'developers' ? 'Застройщики' : PLACE_GROUP_LABELS[by],
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
