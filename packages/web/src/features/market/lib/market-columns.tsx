import {
  CLASS_ORIGIN_LABELS,
  type ClassOrigin,
  COMPARE_MAX,
  formatChange,
  formatDecimal2,
  formatPercent,
  formatRoubles,
  type MarketRow,
  NO_PLACE,
  PLACE_GROUP_LABELS,
  type PlaceGroup,
  PRICE_CLASS_LABELS,
  placeParentLabel,
  type ReliabilityValue,
  stationText,
} from '@cena-metra/contract';
import type { ReactNode } from 'react';
import { type Column, numberColumn } from '../../../lib/columns';
import type { MarketView } from './market-table';
import { isRegistryOnly, registryOf } from './registry-rows';

const dash = '—';
const days = (v: number) => formatDecimal2(v).replace(/,00$/, '');

/** A row's class as shown: a registry-only project's is the registry's own name (Элит among them). */
const classText = (r: MarketRow): string | null =>
  isRegistryOnly(r)
    ? (registryOf(r)?.housingClass ?? null)
    : r.priceClass
      ? PRICE_CLASS_LABELS[r.priceClass]
      : null;

const CLASS_ORIGIN_TITLES: Record<ClassOrigin, string> = {
  hand: 'задан вручную',
  registry: 'по реестру наш.дом.рф',
  price: 'по средней цене м² и ценовым границам региона',
};

/** A figure of our price lists: none for a registry-only project (it has no list). */
const listed =
  (f: (r: MarketRow) => number | null) =>
  (r: MarketRow): number | null =>
    isRegistryOnly(r) ? null : f(r);

/** The figures of a row's last day with data, after its name: shown, sorted and exported alike. */
export const MARKET_FIGURES: Column<MarketRow>[] = [
  {
    key: 'priceClass',
    label: 'Класс',
    type: 'text',
    numeric: true,
    // a registry-only project's class is the registry's (it has no prices to place it by)
    value: classText,
    cell: (r) => {
      const text = classText(r);
      if (text === null) return dash;
      return (
        <span title={r.classOrigin ? `класс: ${CLASS_ORIGIN_TITLES[r.classOrigin]}` : undefined}>
          {text}
          {r.classOrigin && r.classOrigin !== 'price' && (
            <span className="ml-1 text-gray-500 text-xs" data-testid="class-origin">
              {CLASS_ORIGIN_LABELS[r.classOrigin]}
            </span>
          )}
        </span>
      );
    },
  },
  numberColumn(
    'stock',
    'В продаже',
    'integer',
    listed((r) => r.stock),
    String,
  ),
  numberColumn(
    'new30',
    'Новые за 30 дн.',
    'integer',
    listed((r) => r.new30),
    String,
  ),
  numberColumn(
    'gone30',
    'Выбыли за 30 дн.',
    'integer',
    listed((r) => r.gone30),
    String,
  ),
  numberColumn(
    'absorption',
    'Вымываемость 30 дн.',
    'decimal',
    listed((r) => r.absorption),
    formatPercent,
    {
      header: 'Вымываемость 30 дн., %',
    },
  ),
  numberColumn(
    'monthsOfSupply',
    'Запас, мес.',
    'decimal',
    listed((r) => r.monthsOfSupply),
    formatDecimal2,
  ),
  numberColumn(
    'medianDaysOnMarket',
    'Срок продажи, дн.',
    'decimal',
    listed((r) => r.medianDaysOnMarket),
    days,
  ),
  numberColumn(
    'avgMeterPrice',
    'Ср. цена м², ₽',
    'decimal',
    listed((r) => r.avgMeterPrice),
    formatRoubles,
  ),
  numberColumn(
    'indexChange',
    'Индекс за период',
    'decimal',
    listed((r) => r.indexChange),
    formatChange,
    {
      header: 'Индекс за период, %',
    },
  ),
];

/** Where a project's class comes from, exported (shown beside the class). */
const CLASS_ORIGIN: Column<MarketRow> = {
  key: 'classOrigin',
  label: 'Класс: источник',
  type: 'text',
  value: (r) => (r.classOrigin ? CLASS_ORIGIN_LABELS[r.classOrigin] : null),
  shown: false,
};

/** «Продано по реестру» of a project (DESIGN §12.3): the registry's sold share, flats-weighted. */
const REGISTRY_SOLD: Column<MarketRow> = {
  ...numberColumn<MarketRow>(
    'registrySold',
    'Продано по реестру',
    'decimal',
    (r) => {
      const share = registryOf(r)?.soldShare;
      return share === undefined || share === null ? null : Math.round(share * 10_000) / 100;
    },
    formatPercent,
    { header: 'Продано по реестру, %' },
  ),
  cell: (r) => {
    const p = registryOf(r);
    if (!p || p.soldShare === null) return dash;
    return (
      <span
        title={`Объектов реестра: ${p.objects}; продано ${p.realised ?? '—'} из ${p.flats ?? '—'} квартир`}
      >
        {formatPercent(Math.round(p.soldShare * 10_000) / 100)}
      </span>
    );
  },
};

/** A project's place as the export's columns (DESIGN §11.3: the exports carry the place), not shown. */
const placeColumn = (
  key: string,
  label: string,
  type: 'text' | 'decimal',
  value: (r: MarketRow) => string | number | null,
): Column<MarketRow> => ({ key: `place-${key}`, label, type, value, shown: false });
const PLACE_COLUMNS: Column<MarketRow>[] = [
  placeColumn('region', 'Регион', 'text', (r) => r.place?.region ?? null),
  placeColumn('city', 'Город', 'text', (r) => r.place?.city ?? null),
  placeColumn('district', 'Район', 'text', (r) => r.place?.district ?? null),
  placeColumn('address', 'Адрес', 'text', (r) => r.place?.address ?? null),
  placeColumn('stations', 'Станции', 'text', (r) => r.place?.stations.map(stationText).join('; ') || null),
  placeColumn('latitude', 'Широта', 'decimal', (r) => r.place?.latitude ?? null),
  placeColumn('longitude', 'Долгота', 'decimal', (r) => r.place?.longitude ?? null),
];

/** What the table does with its rows beyond showing them (the page's; the export needs none). */
export interface MarketTableActions {
  to: string;
  picked: number[];
  toggle: (id: number) => void;
  /** a row's name: its project's dashboard, a developer's projects, a place's projects */
  name: (r: MarketRow) => ReactNode;
}

/** «Надёжность сроков» of a developer (DESIGN §12.3): the share of its registry objects ever moved later, and
 *  the months moved in the last 12; «—» without registry objects. */
export function reliabilityText(r: ReliabilityValue | undefined): string {
  if (!r || r.movedLaterShare === null) return dash;
  const months = r.monthsLast12
    ? `, ${r.monthsLast12 > 0 ? '+' : '−'}${formatDecimal2(Math.abs(r.monthsLast12)).replace(/,00$/, '')} мес. за год`
    : '';
  return `${formatDecimal2(r.movedLaterShare * 100).replace(/,00$/, '')} % объектов${months}`;
}

/** A developer's «Надёжность сроков», with its registry group's beside (DESIGN §12.3: per developer and group). */
export type DeveloperReliability = ReliabilityValue & {
  group?: string | null;
  groupReliability?: ReliabilityValue;
};

const reliabilityColumn = (reliability: Map<number, DeveloperReliability>): Column<MarketRow> => ({
  key: 'reliability',
  label: 'Надёжность сроков',
  header: 'Перенесли ввод, % объектов',
  type: 'decimal',
  value: (r) => {
    const share = reliability.get(r.id)?.movedLaterShare;
    return share === undefined || share === null ? null : Math.round(share * 10_000) / 100;
  },
  text: (r) => reliabilityText(reliability.get(r.id)),
  cell: (r) => {
    const d = reliability.get(r.id);
    const group = d?.group && d.groupReliability ? d.groupReliability : undefined;
    return (
      <span title={group ? `Группа «${d!.group}»: ${reliabilityText(group)}` : undefined}>
        {reliabilityText(d)}
        {group && (
          <span className="block text-gray-500 text-xs" data-testid="group-reliability">
            группа: {reliabilityText(group)}
          </span>
        )}
      </span>
    );
  },
  className: (r) =>
    (reliability.get(r.id)?.movedLaterShare ?? 0) > 0 ? 'text-amber-700 dark:text-amber-400' : undefined,
  sortable: false,
});

/**
 * «Рынок»'s columns for a view (projects, developers or places by `by`), the page's when `ui` is given;
 * the developers' «Надёжность сроков» when the registry's `reliability` is given.
 */
export function marketColumns(
  view: MarketView,
  by: PlaceGroup = 'district',
  ui?: MarketTableActions,
  reliability?: Map<number, DeveloperReliability>,
): Column<MarketRow>[] {
  const nameLabel =
    view === 'projects' ? 'Проект' : view === 'developers' ? 'Застройщик' : PLACE_GROUP_LABELS[by];
  const parentLabel = view === 'places' ? placeParentLabel(by) : null;
  const out: Column<MarketRow>[] = [];
  if (view === 'projects' && ui)
    out.push({
      key: 'compare',
      label: 'Сравнить',
      type: 'text',
      value: () => null,
      exported: false,
      sortable: false,
      cell: (r) =>
        isRegistryOnly(r) ? null : (
          <input
            type="checkbox"
            aria-label={`Сравнить «${r.name}»`}
            checked={ui.picked.includes(r.id)}
            disabled={!ui.picked.includes(r.id) && ui.picked.length >= COMPARE_MAX}
            onChange={() => ui.toggle(r.id)}
          />
        ),
    });
  out.push({
    key: 'name',
    label: nameLabel,
    type: 'text',
    value: (r) => r.name,
    cell:
      ui &&
      ((r) => (
        <>
          {view === 'places' && r.name === NO_PLACE ? (
            <span className="text-gray-500">{r.name}</span>
          ) : isRegistryOnly(r) ? (
            <span>
              {r.name}
              <span
                className="ml-2 rounded-full border border-slate-400 px-2 text-gray-500 text-xs"
                data-testid="registry-only"
                title="Проект есть только в реестре наш.дом.рф: прайс-листа нет"
              >
                только реестр
              </span>
            </span>
          ) : (
            ui.name(r)
          )}
          {r.date !== ui.to && (
            <span className="ml-2 text-gray-500 text-xs" title="Последний день с данными в периоде">
              на {new Date(`${r.date}T00:00:00`).toLocaleDateString('ru-RU')}
            </span>
          )}
        </>
      )),
  });
  if (view === 'projects')
    out.push(
      { key: 'developerName', label: 'Застройщик', type: 'text', value: (r) => r.developerName },
      {
        key: 'where',
        label: 'Район',
        type: 'text',
        value: (r) => [r.place?.district, r.place?.city].filter(Boolean).join(', ') || null,
        cell: (r) => (
          <span title={r.place?.address ?? undefined}>
            {[r.place?.district, r.place?.city].filter(Boolean).join(', ') || dash}
          </span>
        ),
        exported: false,
        sortable: false,
      },
      ...PLACE_COLUMNS,
    );
  else
    out.push({
      key: 'projects',
      label: 'Проектов',
      type: 'integer',
      numeric: false,
      value: (r) => r.projects,
      sortable: false,
    });
  if (parentLabel)
    out.push({
      key: 'parent',
      label: parentLabel,
      type: 'text',
      value: (r) => r.parent || null,
      sortable: false,
    });
  out.push({ key: 'date', label: 'На дату', type: 'date', value: (r) => r.date, width: 12, shown: false });
  return [
    ...out,
    ...MARKET_FIGURES,
    ...(view === 'projects' ? [REGISTRY_SOLD, CLASS_ORIGIN] : []),
    ...(view === 'developers' && reliability ? [reliabilityColumn(reliability)] : []),
  ];
}
