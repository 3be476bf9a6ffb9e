import { afterGapLabel, type Facing, facingLabel, roomsLabel } from '@cena-metra/contract';
import { Link } from 'react-router';
import { changeTone, formatChange } from '../lib/changes';
import type { Column } from '../lib/columns';

const TONE = { down: 'text-emerald-600', up: 'text-red-600', none: '' } as const;

/** A flat as its rows carry it. */
interface FlatLike {
  flatId: number;
  building: string;
  rooms: number;
  area: number;
  floor: number | null;
  facing: Facing;
}

/** The flat's columns every flat table starts with: its number (a link to its card) and its record. */
export function flatColumns<R extends FlatLike>(open = false): Column<R>[] {
  return [
    {
      key: 'flatId',
      label: 'Квартира',
      type: 'integer',
      numeric: false,
      value: (r) => r.flatId,
      cell: (r) => (
        <Link
          className="text-blue-600 hover:underline dark:text-blue-400"
          to={open ? `/summary/flat/${r.flatId}` : `/flat?flatId=${r.flatId}`}
        >
          №&nbsp;{r.flatId}
        </Link>
      ),
    },
    { key: 'building', label: 'Корпус', type: 'text', value: (r) => r.building },
    {
      key: 'rooms',
      label: 'Комнатность',
      type: 'text',
      value: (r) => roomsLabel(r.rooms),
      sort: (r) => r.rooms,
    },
    {
      key: 'area',
      label: 'Площадь, м²',
      type: 'decimal',
      value: (r) => r.area,
      text: (r) => r.area.toLocaleString('ru-RU'),
    },
    { key: 'floor', label: 'Этаж', type: 'integer', value: (r) => r.floor },
    { key: 'facing', label: 'Отделка', type: 'text', value: (r) => facingLabel(r.facing) },
  ];
}

/**
 * A price change in %, coloured green when cheaper and red when dearer; `afterGap` marks a change seen
 * across a gap without data (§10.1): it accumulated over that time, it did not happen that day.
 */
export function changeColumn<R>(
  key: string,
  label: string,
  percent: (row: R) => number | null,
  options: { empty?: string; afterGap?: (row: R) => number | null | undefined } = {},
): Column<R> {
  return {
    key,
    label,
    type: 'decimal',
    value: percent,
    className: (r) => TONE[changeTone(percent(r))] || undefined,
    cell: (r) => (
      <>
        {percent(r) === null && options.empty ? options.empty : formatChange(percent(r))}
        {options.afterGap?.(r) != null && (
          <span className="block text-amber-700 text-xs dark:text-amber-300" data-testid="after-gap">
            {afterGapLabel(options.afterGap(r)!)}
          </span>
        )}
      </>
    ),
  };
}
