import { afterGapLabel, type Facing, facingLabel, roomsLabel } from '@cena-metra/contract';
import { Link } from 'react-router';
import { changeTone, formatChange } from '../lib/changes';
import type { Column } from '../lib/columns';

const TONE = { down: 'text-emerald-600', up: 'text-red-600', none: '' } as const;

/** Column labels of a flat's link and record cells ({@link FlatLinkCell}, {@link FlatRecordCells}). */
export const FLAT_COLUMNS = ['Квартира', 'Корпус', 'Комнатность', 'Площадь, м²', 'Этаж', 'Отделка'];

/** Header cells of a data table (styled by `.data-table`). */
export function HeaderCells({ labels }: { labels: string[] }) {
  return labels.map((label) => <th key={label}>{label}</th>);
}

/** A flat's number linking to its card: the open summary card, or /flat for signed-in pages. */
export function FlatLinkCell({ flatId, open = false }: { flatId: number; open?: boolean }) {
  return (
    <td>
      <Link
        className="text-blue-600 hover:underline dark:text-blue-400"
        to={open ? `/summary/flat/${flatId}` : `/flat?flatId=${flatId}`}
      >
        №&nbsp;{flatId}
      </Link>
    </td>
  );
}

/** The cells every flat row shows: building, rooms, area, floor, finish. */
export function FlatRecordCells(flat: {
  building: string;
  rooms: number;
  area: number;
  floor: number | null;
  facing: Facing;
}) {
  return (
    <>
      <td>{flat.building}</td>
      <td>{roomsLabel(flat.rooms)}</td>
      <td className="text-right">{flat.area.toLocaleString('ru-RU')}</td>
      <td className="text-right">{flat.floor ?? '—'}</td>
      <td>{facingLabel(flat.facing)}</td>
    </>
  );
}

/** A price change in percent, green when cheaper, red when dearer. */
/**
 * A price change in %, coloured; `afterGapDays` marks a change seen across a gap without data (§10.1): it
 * accumulated over that time, it did not happen that day.
 */
export function ChangeCell({
  percent,
  empty,
  afterGapDays,
}: {
  percent: number | null;
  empty?: string;
  afterGapDays?: number | null;
}) {
  return (
    <td className={`text-right ${TONE[changeTone(percent)]}`}>
      {percent === null && empty ? empty : formatChange(percent)}
      {afterGapDays != null && (
        <span className="block text-amber-700 text-xs dark:text-amber-300" data-testid="after-gap">
          {afterGapLabel(afterGapDays)}
        </span>
      )}
    </td>
  );
}

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
