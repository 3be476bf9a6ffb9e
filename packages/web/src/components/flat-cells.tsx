import { type Facing, facingLabel, roomsLabel } from '@cena-metra/contract';
import { Link } from 'react-router';
import { changeTone, formatChange } from '../lib/changes';

const TONE = { down: 'text-emerald-600', up: 'text-red-600', none: '' } as const;

/** Header cells of a data table. */
export function HeaderCells({ labels }: { labels: string[] }) {
  return labels.map((label) => (
    <th key={label} className="border-gray-100 border-b px-3 py-2 font-semibold dark:border-slate-700">
      {label}
    </th>
  ));
}

/** A flat's number linking to its card: the open summary card, or /flat for signed-in pages. */
export function FlatLinkCell({ flatId, open = false }: { flatId: number; open?: boolean }) {
  return (
    <td className="px-3 py-2">
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
      <td className="px-3 py-2">{flat.building}</td>
      <td className="px-3 py-2">{roomsLabel(flat.rooms)}</td>
      <td className="px-3 py-2 text-right">{flat.area.toLocaleString('ru-RU')}</td>
      <td className="px-3 py-2 text-right">{flat.floor ?? '—'}</td>
      <td className="px-3 py-2">{facingLabel(flat.facing)}</td>
    </>
  );
}

/** A price change in percent, green when cheaper, red when dearer. */
export function ChangeCell({ percent, empty }: { percent: number | null; empty?: string }) {
  return (
    <td className={`px-3 py-2 text-right ${TONE[changeTone(percent)]}`}>
      {percent === null && empty ? empty : formatChange(percent)}
    </td>
  );
}
