import { afterGapLabel, formatDecimal2, formatLongDate, type ProjectQuality } from '@cena-metra/contract';

/** One line of the «Качество данных» panel: what, the value, and whether it deserves a look. */
export interface QualityLine {
  label: string;
  value: string;
  warn: boolean;
}

const pct = (v: number | null) => (v === null ? '—' : `${formatDecimal2(v)} %`);

/** The panel's lines from the report: a user sees why a number looks odd without opening a database. */
export function qualityLines(q: ProjectQuality): QualityLine[] {
  return [
    {
      label: 'Снимков',
      value: q.snapshots.first
        ? `${q.snapshots.count}: ${formatLongDate(q.snapshots.first)} — ${formatLongDate(q.snapshots.last!)}`
        : '0',
      warn: false,
    },
    {
      label: `Перерывы без данных (больше ${q.maxCarryDays} дн.)`,
      value: q.gaps.length
        ? q.gaps.map((g) => `${formatLongDate(g.before)}, ${afterGapLabel(g.days)}`).join('; ')
        : 'нет',
      warn: q.gaps.length > 0,
    },
    {
      label: 'Неполные сканы',
      value: q.partialScans.length
        ? q.partialScans
            .map((p) => `${formatLongDate(p.date)}: ${p.flats} из ~${Math.round(p.median)}`)
            .join('; ')
        : 'нет',
      warn: q.partialScans.length > 0,
    },
    {
      label: 'Квартир с изменённой площадью',
      value: String(q.areaChangedFlats),
      warn: q.areaChangedFlats > 0,
    },
    {
      label: 'Выбросы цены м² (меньше половины или больше двух медиан)',
      value: String(q.ppmOutliers),
      warn: q.ppmOutliers > 0,
    },
    { label: 'Забронировано', value: pct(q.reservedPercent), warn: false },
    {
      label: 'Без даты сдачи',
      value: pct(q.noSettlementPercent),
      warn: (q.noSettlementPercent ?? 0) > 20,
    },
  ];
}
