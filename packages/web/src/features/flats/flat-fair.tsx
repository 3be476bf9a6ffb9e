import {
  type Comparable,
  formatChange,
  formatDecimal2,
  formatRoubles,
  roomsLabel,
} from '@cena-metra/contract';
import { Link } from 'react-router';
import { ColumnTable } from '../../components/column-table';
import { Card } from '../../components/ui';
import { type Column, numberColumn } from '../../lib/columns';
import { useFlatFair } from './api';

const month = (iso: string) =>
  new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU', { month: 'long', year: 'numeric' });

const COMPARABLE_COLUMNS: Column<Comparable>[] = [
  {
    key: 'flat',
    label: 'Квартира',
    type: 'text',
    value: (c) => c.flatId,
    cell: (c) => (
      <Link className="text-blue-600 hover:underline dark:text-blue-400" to={`/flat?flatId=${c.flatId}`}>
        {c.flatId}
      </Link>
    ),
  },
  { key: 'project', label: 'Проект', type: 'text', value: (c) => c.projectName },
  { key: 'rooms', label: 'Комнат', type: 'text', value: (c) => roomsLabel(c.rooms) },
  numberColumn(
    'area',
    'Площадь, м²',
    'decimal',
    (c) => c.area,
    (v) => v.toLocaleString('ru-RU'),
  ),
  numberColumn('price', 'Цена, ₽', 'integer', (c) => c.price, formatRoubles),
  numberColumn('adjustment', 'Поправка', 'decimal', (c) => c.adjustment, formatChange),
  numberColumn('adjusted', 'Цена с поправкой, ₽', 'integer', (c) => c.adjustedPrice, formatRoubles),
  numberColumn(
    'km',
    'Км',
    'decimal',
    (c) => c.km,
    (v) => formatDecimal2(v),
  ),
];

/**
 * «Справедливая цена» (DESIGN §12.4): what the hedonic model prices the flat at in its city's market, its
 * premium, and the ten comparables with their prices adjusted to it. For a flat on sale; otherwise says why.
 */
export function FlatFairCard({ flatId, enabled }: { flatId: number; enabled: boolean }) {
  const fair = useFlatFair(flatId, enabled);
  if (!enabled) return null;
  const data = fair.data;
  return (
    <Card className="mt-6" title="Справедливая цена">
      {fair.isLoading && <p className="text-gray-500 text-sm">Считаем по модели…</p>}
      {fair.isError && (
        <p className="text-gray-500 text-sm dark:text-slate-400" data-testid="flat-fair-none">
          {fair.error.message}
        </p>
      )}
      {data && (
        <div data-testid="flat-fair">
          <dl className="mb-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm md:grid-cols-4">
            <dt className="text-gray-500 dark:text-slate-400">Справедливая цена</dt>
            <dd data-field="fair">{formatRoubles(data.fairPrice)} ₽</dd>
            <dt className="text-gray-500 dark:text-slate-400">За м²</dt>
            <dd>{formatRoubles(data.fairMeterPrice)} ₽</dd>
            <dt className="text-gray-500 dark:text-slate-400">Цена к справедливой</dt>
            <dd
              data-field="premium"
              className={data.premium <= -10 ? 'font-semibold text-emerald-600' : undefined}
            >
              {formatChange(data.premium)}
            </dd>
            <dt className="text-gray-500 dark:text-slate-400">Рынок модели</dt>
            <dd>
              {data.segment}, {month(data.month)}
            </dd>
          </dl>
          <ColumnTable
            columns={COMPARABLE_COLUMNS}
            rows={data.comparables}
            rowKey={(c) => String(c.flatId)}
            testId="flat-comparables"
          />
          <p className="mt-2 text-gray-500 text-xs dark:text-slate-400">
            Модель: логарифм цены м² от месяца, проекта, комнатности, площади, этажа, отделки и срока сдачи за
            13 месяцев. Поправка приводит цену аналога к этой квартире по этим признакам; вид и планировка не
            учтены.
          </p>
        </div>
      )}
    </Card>
  );
}
