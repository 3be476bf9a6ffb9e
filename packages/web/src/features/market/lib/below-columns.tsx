import { type BelowComparableRow, formatChange, formatRoubles, roomsLabel } from '@cena-metra/contract';
import { Link } from 'react-router';
import { type Column, numberColumn, sheetOf } from '../../../lib/columns';

/** «Ниже аналогов»'s columns (DESIGN §12.4): the flat, where it is, its price and its fair price. */
export const BELOW_COLUMNS: Column<BelowComparableRow>[] = [
  {
    key: 'flat',
    label: 'Квартира',
    type: 'integer',
    value: (r) => r.flatId,
    cell: (r) => (
      <Link className="text-blue-600 hover:underline dark:text-blue-400" to={`/flat?flatId=${r.flatId}`}>
        {r.flatId}
      </Link>
    ),
  },
  { key: 'project', label: 'Проект', type: 'text', value: (r) => r.projectName },
  { key: 'developer', label: 'Застройщик', type: 'text', value: (r) => r.developerName },
  { key: 'rooms', label: 'Комнат', type: 'text', value: (r) => roomsLabel(r.rooms) },
  numberColumn(
    'area',
    'Площадь, м²',
    'decimal',
    (r) => r.area,
    (v) => v.toLocaleString('ru-RU'),
  ),
  numberColumn('floor', 'Этаж', 'integer', (r) => r.floor),
  numberColumn('price', 'Цена, ₽', 'integer', (r) => r.price, formatRoubles),
  numberColumn('meterPrice', 'Цена м², ₽', 'decimal', (r) => r.meterPrice, formatRoubles),
  numberColumn('fairPrice', 'Справедливая цена, ₽', 'integer', (r) => r.fairPrice, formatRoubles),
  numberColumn('premium', 'К справедливой', 'decimal', (r) => r.premium, formatChange),
  { key: 'segment', label: 'Рынок модели', type: 'text', value: (r) => r.segment },
];

export const belowSheet = (rows: BelowComparableRow[]) => sheetOf('Ниже аналогов', BELOW_COLUMNS, rows);
