import { describe, expect, it } from 'vitest';
import { type ChessCell, chessboard, place } from './chess.js';
import type { FlatRecord, Segment } from './types.js';

const rec = (over: Partial<FlatRecord>): FlatRecord => ({
  building: '1',
  section: '1',
  floor: 1,
  number: '1',
  rooms: 1,
  area: 40,
  facing: 'BLACK',
  settlementDate: null,
  price: 8_000_000,
  basePrice: null,
  status: 'AVAILABLE',
  offer: null,
  ...over,
});
const cell = (flatId: number, over: Partial<FlatRecord>): ChessCell => ({
  flatId,
  state: 'active',
  rec: rec(over),
  firstSeen: 0,
  lastSeen: 0,
  daysOnMarket: 0,
  priceSince: null,
});

describe('the chessboard: placement', () => {
  it.each([
    // section, floor, number → where it lands
    [
      'floors top first, numbers in natural order, sections side by side (none last)',
      [
        [1, '1', 1, '2'],
        [2, '1', 1, '10'],
        [3, '1', 2, '3'],
        [4, '2', 1, '1'],
        [5, null, 5, '7'],
        [6, '10', 1, '1'],
      ],
      [
        {
          section: '1',
          floors: [
            [2, ['3']],
            [1, ['2', '10']],
          ],
        },
        { section: '2', floors: [[1, ['1']]] },
        { section: '10', floors: [[1, ['1']]] },
        { section: null, floors: [[5, ['7']]] },
      ],
      [],
    ],
    [
      'a flat without floor or number goes to the strip',
      [
        [1, '1', null, '5'],
        [2, '1', 3, null],
        [3, '1', 3, '4'],
      ],
      [{ section: '1', floors: [[3, ['4']]] }],
      [1, 2],
    ],
  ] as const)('%s', (_, table, sections, strip) => {
    const board = place(table.map(([id, section, floor, number]) => cell(id, { section, floor, number })));
    expect(
      board.sections.map((s) => ({
        section: s.section,
        floors: s.floors.map((f) => [f.floor, f.cells.map((c) => c.rec.number)]),
      })),
    ).toEqual(sections);
    expect(board.strip.map((c) => c.flatId)).toEqual(strip);
  });

  it('reads each flat’s latest segment by D: active when it covers D’s list, else gone with its last record', () => {
    const seg = (
      flatId: number,
      startDay: number,
      endDay: number | null,
      over: Partial<FlatRecord> = {},
    ): Segment => ({
      flatId,
      startDay,
      endDay,
      rec: rec({ number: String(flatId), ...over }),
    });
    const flats = [
      // on sale throughout, its price cut on day 20
      [seg(1, 0, 19), seg(1, 20, null, { price: 7_000_000 })],
      // sold on day 10 (active to 9)
      [seg(2, 0, 9)],
      // listed from day 30: not seen by D = 25
      [seg(3, 30, null)],
      // reserved
      [seg(4, 5, null, { status: 'RESERVED' })],
      // in another building
      [seg(5, 0, null, { building: '2' })],
    ];
    const firstSeen = new Map([
      [1, 0],
      [2, 0],
      [3, 30],
      [4, 5],
      [5, 0],
    ]);
    const board = chessboard(flats, firstSeen, '1', 25, 25, 40, 10, 10);
    const cells = board.sections.flatMap((s) => s.floors.flatMap((f) => f.cells));
    expect(cells.map((c) => [c.flatId, c.state, c.rec.price, c.daysOnMarket, c.priceSince])).toEqual([
      [1, 'active', 7_000_000, 25, 8_000_000],
      [2, 'gone', 8_000_000, 9, null],
      [4, 'active', 8_000_000, 20, 8_000_000],
    ]);
    expect(cells.find((c) => c.flatId === 4)?.rec.status).toBe('RESERVED');
  });
});
