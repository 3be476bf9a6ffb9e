import { afterGapLabel, type Facing, facingLabel, roomsLabel } from '@cena-metra/contract';
import { Link } from 'react-router';
import { changeTone, formatChange } from '../lib/changes';

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
