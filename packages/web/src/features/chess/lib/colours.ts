import type { ChessCellView } from '@cena-metra/contract';

/** How the chessboard colours its cells (DESIGN §10.7). */
export const CHESS_MODES = ['ppm', 'status', 'change', 'days'] as const;
export type ChessMode = (typeof CHESS_MODES)[number];
export const CHESS_MODE_LABELS: Record<ChessMode, string> = {
  ppm: 'Цена м²',
  status: 'Статус',
  change: 'Изменение с даты',
  days: 'Дней в продаже',
};

export interface LegendItem {
  colour: string;
  label: string;
}

export const GONE = '#d1d5db';
const SCALE = ['#16a34a', '#84cc16', '#facc15', '#f97316', '#dc2626'];
const DAYS = [
  { upTo: 30, label: 'до 30' },
  { upTo: 90, label: '31–90' },
  { upTo: 180, label: '91–180' },
  { upTo: 365, label: '181–365' },
  { upTo: Number.POSITIVE_INFINITY, label: 'больше года' },
];
const kRoubles = (v: number) => `${Math.round(v / 1000).toLocaleString('ru-RU')} тыс.`;

/**
 * The colour of every cell and the legend for a mode: ppm in five classes by the quintiles of the flats on
 * sale (cheap green to dear red); status (свободна, бронь, выбыла); the change of price since the chosen
 * date (down, up, same, new since then); days on market in five bands. A gone flat is grey in every mode
 * but status, where it is «выбыла».
 */
export function chessColours(
  cells: ChessCellView[],
  mode: ChessMode,
): { colour: (c: ChessCellView) => string; legend: LegendItem[] } {
  const gone = (c: ChessCellView) => c.state === 'gone';
  if (mode === 'status')
    return {
      colour: (c) => (gone(c) ? GONE : c.status === 'RESERVED' ? '#f59e0b' : '#22c55e'),
      legend: [
        { colour: '#22c55e', label: 'свободна' },
        { colour: '#f59e0b', label: 'бронь' },
        { colour: GONE, label: 'выбыла' },
      ],
    };
  if (mode === 'change')
    return {
      colour: (c) => {
        if (gone(c)) return GONE;
        if (c.priceSince === null) return '#a78bfa';
        return c.price < c.priceSince ? '#22c55e' : c.price > c.priceSince ? '#ef4444' : '#bfdbfe';
      },
      legend: [
        { colour: '#22c55e', label: 'подешевела' },
        { colour: '#ef4444', label: 'подорожала' },
        { colour: '#bfdbfe', label: 'без изменений' },
        { colour: '#a78bfa', label: 'новая с той даты' },
        { colour: GONE, label: 'выбыла' },
      ],
    };
  if (mode === 'days')
    return {
      colour: (c) => (gone(c) ? GONE : SCALE[DAYS.findIndex((b) => c.daysOnMarket <= b.upTo)]),
      legend: [
        ...DAYS.map((b, i) => ({ colour: SCALE[i], label: b.label })),
        { colour: GONE, label: 'выбыла' },
      ],
    };
  const values = cells
    .filter((c) => !gone(c))
    .map((c) => c.meterPrice)
    .sort((a, b) => a - b);
  // the upper edges of the first four classes: the 20th … 80th percentiles
  const edges = [1, 2, 3, 4].map(
    (q) => values[Math.min(values.length - 1, Math.floor((values.length * q) / 5))],
  );
  const classOf = (v: number) => {
    const i = edges.findIndex((e) => v < e);
    return i < 0 ? 4 : i;
  };
  const legend: LegendItem[] = values.length
    ? SCALE.map((colour, i) => ({
        colour,
        label:
          i === 0
            ? `до ${kRoubles(edges[0])}`
            : i === 4
              ? `от ${kRoubles(edges[3])}`
              : `${kRoubles(edges[i - 1])} – ${kRoubles(edges[i])}`,
      }))
    : [];
  return {
    colour: (c) => (gone(c) ? GONE : SCALE[classOf(c.meterPrice)]),
    legend: [...legend, { colour: GONE, label: 'выбыла' }],
  };
}
