import type { ChessCellView, ChessResponse } from '@cena-metra/contract';

export const CELL = { w: 76, h: 46, gap: 3 };
const LABEL_W = 34;
const HEAD_H = 24;
const SECTION_GAP = 24;

export interface PlacedCell {
  cell: ChessCellView;
  x: number;
  y: number;
}

/**
 * Where every cell of the board is drawn: sections side by side, each with its floor numbers on the left
 * and its title above; floors top down; a floor's flats left to right; the strip in rows below.
 */
export function boardLayout(board: Pick<ChessResponse, 'sections' | 'strip'>) {
  const floorsAll = [...new Set(board.sections.flatMap((s) => s.floors.map((f) => f.floor)))].sort(
    (a, b) => b - a,
  );
  // every section spans the same floors, so a floor reads across the whole building
  const rowOf = new Map(floorsAll.map((f, i) => [f, i]));
  const cells: PlacedCell[] = [];
  const titles: { x: number; text: string }[] = [];
  const floorLabels: { x: number; y: number; text: string }[] = [];
  let x = 0;
  for (const section of board.sections) {
    const columns = Math.max(1, ...section.floors.map((f) => f.cells.length));
    titles.push({
      x: x + LABEL_W,
      text: section.section === null ? 'Без секции' : `Секция ${section.section}`,
    });
    for (const f of floorsAll)
      floorLabels.push({ x, y: HEAD_H + rowOf.get(f)! * (CELL.h + CELL.gap), text: String(f) });
    for (const floor of section.floors)
      floor.cells.forEach((cell, i) =>
        cells.push({
          cell,
          x: x + LABEL_W + i * (CELL.w + CELL.gap),
          y: HEAD_H + rowOf.get(floor.floor)! * (CELL.h + CELL.gap),
        }),
      );
    x += LABEL_W + columns * (CELL.w + CELL.gap) + SECTION_GAP;
  }
  const boardH = HEAD_H + floorsAll.length * (CELL.h + CELL.gap);
  const width = Math.max(x - SECTION_GAP, LABEL_W + 8 * (CELL.w + CELL.gap));
  // the strip: as many per row as the board is wide
  const perRow = Math.max(1, Math.floor((width - LABEL_W) / (CELL.w + CELL.gap)));
  const stripY = boardH + (board.strip.length ? HEAD_H + 8 : 0);
  board.strip.forEach((cell, i) =>
    cells.push({
      cell,
      x: LABEL_W + (i % perRow) * (CELL.w + CELL.gap),
      y: stripY + Math.floor(i / perRow) * (CELL.h + CELL.gap),
    }),
  );
  const stripRows = Math.ceil(board.strip.length / perRow);
  const height = stripY + stripRows * (CELL.h + CELL.gap);
  return {
    cells,
    titles,
    floorLabels,
    width,
    height,
    stripTitleY: board.strip.length ? boardH + HEAD_H - 6 : null,
  };
}
