import {
  buildingLabel,
  type FlatCard,
  facingLabel,
  formatDecimal2,
  formatRoubles,
  quarterLabel,
  roomsLabel,
} from '@cena-metra/contract';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { TimeChart } from '../../components/chart/time-chart';
import { ColumnTable } from '../../components/column-table';
import { changeColumn } from '../../components/flat-cells';
import { DataState } from '../../components/states';
import { Card } from '../../components/ui';
import { FlatWatchControl } from '../../components/watch/watch-buttons';
import { type Column, numberColumn } from '../../lib/columns';
import { useFlatCard } from './api';
import { FlatFairCard } from './flat-fair';
import { FlatOfferCard } from './flat-offer';
import { historySeries, priceChanges } from './lib/history';

/** The room group a percentile is among, as the card says it. */
const PERCENTILE_GROUPS = {
  all: 'все',
  studio: 'студии',
  one: '1-комнатные',
  two: '2-комнатные',
  threeAndMore: '3+ комнатные',
} as const;

const day = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');

/** What the lists said of the flat (DESIGN §10.2). */
const STATE_LABELS: Record<FlatCard['statusHistory'][number]['state'], string> = {
  AVAILABLE: 'Свободна',
  RESERVED: 'Забронирована',
  ABSENT: 'Нет в прайс-листе',
};

type Change = ReturnType<typeof priceChanges>[number];
type StatusEntry = FlatCard['statusHistory'][number];
type AreaEntry = FlatCard['areaHistory'][number];

const CHANGE_COLUMNS: Column<Change>[] = [
  { key: 'date', label: 'Дата', type: 'date', value: (c) => c.date, text: (c) => day(c.date) },
  numberColumn('price', 'Цена, ₽', 'integer', (c) => c.price, formatRoubles),
  numberColumn('meterPrice', 'Цена за м², ₽', 'decimal', (c) => c.meterPrice, formatRoubles),
  changeColumn<Change>('change', 'Изменение', (c) => c.changePercent, { empty: 'первая цена' }),
];
const STATUS_COLUMNS: Column<StatusEntry>[] = [
  { key: 'date', label: 'С даты', type: 'date', value: (st) => st.date, text: (st) => day(st.date) },
  { key: 'state', label: 'Статус', type: 'text', value: (st) => STATE_LABELS[st.state] },
];
const AREA_COLUMNS: Column<AreaEntry>[] = [
  { key: 'date', label: 'С даты', type: 'date', value: (a) => a.date, text: (a) => day(a.date) },
  {
    key: 'area',
    label: 'Площадь, м²',
    type: 'decimal',
    value: (a) => a.area,
    text: (a) => a.area.toLocaleString('ru-RU'),
  },
];

/** The flat card: its record and status, a step chart of its price per m², and its price changes. */
export function FlatCardView({ flatId, open }: { flatId: number; open: boolean }) {
  const q = useFlatCard(flatId, open);
  const card = q.data;
  const series = useMemo(() => (card ? historySeries(card) : []), [card]);
  return (
    <DataState loading={q.isLoading} error={q.error}>
      {card && (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="lg:col-span-1">
            <Card title={`Квартира № ${card.record.number ?? card.externalId}`}>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm" data-testid="flat-card">
                {(
                  [
                    [
                      'Проект',
                      open ? (
                        card.projectName
                      ) : (
                        <Link
                          key="p"
                          className="text-blue-600 dark:text-blue-400"
                          to={`/?developer=${card.developerId}&project=${card.projectId}`}
                        >
                          {card.projectName}
                        </Link>
                      ),
                    ],
                    ['Застройщик', card.developerName],
                    ['Корпус', buildingLabel(card.record.building)],
                    ['Секция', card.record.section ?? '—'],
                    ['Этаж', card.record.floor ?? '—'],
                    ['Номер', card.record.number ?? '—'],
                    ['Комнатность', roomsLabel(card.record.rooms)],
                    ['Площадь', `${card.record.area.toLocaleString('ru-RU')} м²`],
                    ['Отделка', facingLabel(card.record.facing)],
                    ['Сдача', card.record.settlementDate ? quarterLabel(card.record.settlementDate) : '—'],
                    [
                      'Статус',
                      card.status === 'ACTIVE'
                        ? card.record.listingStatus === 'RESERVED'
                          ? 'В продаже, забронирована'
                          : 'В продаже'
                        : 'Снята с продажи',
                    ],
                    ['В продаже', `${day(card.firstSeen)} — ${day(card.lastSeen)}`],
                    ['Цена', `${formatRoubles(card.record.price)} ₽`],
                    ['Цена за м²', `${formatRoubles(card.record.meterPrice)} ₽`],
                    [
                      'Цена м² в проекте',
                      card.percentile
                        ? `не дороже этой — ${formatDecimal2(card.percentile.value).replace(/,0+$/, '')} % квартир (${PERCENTILE_GROUPS[card.percentile.group]}: ${card.percentile.of} в продаже на ${day(card.percentile.date)})`
                        : '—',
                    ],
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-gray-500 dark:text-slate-400">{k}</dt>
                    <dd data-field={k}>{v}</dd>
                  </div>
                ))}
              </dl>
              {/* signed in: the flat's cell on its building's chessboard */}
              {!open && (
                <Link
                  className="mt-4 inline-block text-blue-600 text-sm hover:underline dark:text-blue-400"
                  data-testid="flat-chess-link"
                  to={`/chess?developer=${card.developerId}&project=${card.projectId}&building=${encodeURIComponent(card.record.building)}&flat=${card.flatId}${card.status === 'ACTIVE' ? '' : `&date=${card.lastSeen}`}`}
                >
                  На шахматке корпуса →
                </Link>
              )}
              {!open && <FlatWatchControl flatId={card.flatId} />}
            </Card>
            <FlatOfferCard card={card} />
          </div>
          <div className="lg:col-span-2">
            <TimeChart
              id="flat-history"
              title="История цены за м²"
              series={series}
              height={360}
              fileName={`квартира ${card.flatId}`}
              look={{ smooth: false, alwaysSteps: true, yName: 'Цена за м², ₽' }}
            />
            <FlatFairCard flatId={card.flatId} enabled={!open && card.status === 'ACTIVE'} />
            <Card className="mt-6" title="Изменения цены">
              <ColumnTable
                columns={CHANGE_COLUMNS}
                rows={priceChanges(card).reverse()}
                rowKey={(c) => c.date}
                testId="flat-changes"
              />
            </Card>
            <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
              <Card title="История статуса">
                <ColumnTable
                  columns={STATUS_COLUMNS}
                  rows={[...card.statusHistory].reverse()}
                  rowKey={(st) => st.date}
                  rowAttributes={(st) => ({ 'data-state': st.state })}
                  testId="flat-status-history"
                />
              </Card>
              <Card title="Площадь">
                {card.areaHistory.length > 1 ? (
                  <ColumnTable
                    columns={AREA_COLUMNS}
                    rows={[...card.areaHistory].reverse()}
                    rowKey={(a) => a.date}
                    testId="flat-area-history"
                  />
                ) : (
                  <p className="text-gray-500 text-sm dark:text-slate-400" data-testid="flat-area-unchanged">
                    Площадь не менялась: {card.record.area.toLocaleString('ru-RU')} м²
                  </p>
                )}
              </Card>
            </div>
          </div>
        </div>
      )}
    </DataState>
  );
}
