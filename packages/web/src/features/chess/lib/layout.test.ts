import type { ChessCellView } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { boardLayout, CELL } from './layout';

const cell = (flatId: number, floor: number | null, number: string | null): ChessCellView => ({
  flatId,
  state: 'active',
  status: null,
  section: '1',
  floor,
  number,
  rooms: 1,
  area: 40,
  price: 1,
  meterPrice: 1,
  firstSeen: '2026-01-01',
  lastSeen: '2026-01-01',
  daysOnMarket: 0,
  priceSince: null,
});

describe('the board layout', () => {
  it('puts floors top down across sections, flats left to right, the second section to the right, the strip below', () => {
    const layout = boardLayout({
      sections: [
        {
          section: '1',
          floors: [
            { floor: 3, cells: [cell(1, 3, '7'), cell(2, 3, '8')] },
            { floor: 1, cells: [cell(3, 1, '1')] },
          ],
        },
        { section: '2', floors: [{ floor: 2, cells: [cell(4, 2, '20')] }] },
      ],
      strip: [cell(5, null, null)],
    });
    const at = (id: number) => layout.cells.find((c) => c.cell.flatId === id)!;
    // floor 3 is the top row, floor 2 the next, floor 1 the last, in both sections
    expect(at(1).y).toBeLessThan(at(4).y);
    expect(at(4).y).toBeLessThan(at(3).y);
    expect(at(2).x - at(1).x).toBe(CELL.w + CELL.gap);
    expect(at(4).x).toBeGreaterThan(at(2).x);
    expect(at(5).y).toBeGreaterThan(at(3).y);
    expect(layout.titles.map((t) => t.text)).toEqual(['Секция 1', 'Секция 2']);
    expect(layout.floorLabels.filter((l) => l.x === 0).map((l) => l.text)).toEqual(['3', '2', '1']);
    expect(layout.height).toBeGreaterThan(at(5).y);
    expect(layout.stripTitleY).not.toBeNull();
  });
});
