import type { ShortFlatSummary } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { cellText } from '../../../lib/columns';
import { PAGE_SIZE, pageOf, SUMMARY_COLUMNS, sortRows, summaryCsv, withPace } from './summary-table';

const row = (over: Partial<ShortFlatSummary>): ShortFlatSummary => ({
  id: 'x',
  buildingName: '1',
  settlementDate: '2026-12-31',
  facingType: 'BLACK',
  roomsNumber: 1,
  activeFlatsCount: 3,
  maxMeterPrice: 400000.5,
  avgMeterPrice: 371093.75,
  minMeterPrice: 300000,
  maxDiscountLastDay: 0,
  maxDiscount7Days: 3.25,
  maxDiscount1Month: 3.25,
  maxDiscount1Year: 10,
  ...over,
});

describe('summary table', () => {
  it('has the 12 columns of the spec, the developer\u2019s discount and 3 of sales pace, formatted ru-RU', () => {
    expect(SUMMARY_COLUMNS).toHaveLength(16);
    const r = row({ buildingName: 'Корпус 2', roomsNumber: 0, settlementDate: null });
    expect(SUMMARY_COLUMNS.map((c) => cellText(c, r))).toEqual([
      'Корпус 2',
      '—',
      'Без отделки',
      'Студия',
      '3',
      '400\u00a0000,50',
      '371\u00a0093,75',
      '300\u00a0000,00',
      '0,00\u00a0%',
      '3,25\u00a0%',
      '3,25\u00a0%',
      '10,00\u00a0%',
      '—',
      '—',
      '—',
      '—',
    ]);
    // the developer's discount when the row has one; none (null) or absent (a summary kept before) is «—»
    expect(SUMMARY_COLUMNS[12].label).toBe('Скидка застройщика');
    expect(cellText(SUMMARY_COLUMNS[12], row({ maxDeveloperDiscount: 7.5 }))).toBe('7,50\u00a0%');
    expect(SUMMARY_COLUMNS[12].value(row({ maxDeveloperDiscount: 7.5 }))).toBe(7.5);
    expect(cellText(SUMMARY_COLUMNS[12], row({ maxDeveloperDiscount: null }))).toBe('—');
    expect(SUMMARY_COLUMNS[12].value(row({}))).toBeNull();
    const paced = withPace(
      [r],
      [{ id: 'x', absorption30: 12.5, medianDaysOnMarket: 40.5, medianStockAge: 90 }],
    );
    expect(SUMMARY_COLUMNS.slice(13).map((c) => cellText(c, paced[0]))).toEqual([
      '12,50\u00a0%',
      '40,50',
      '90',
    ]);
    expect(
      withPace([r], [{ id: 'other', absorption30: 1, medianDaysOnMarket: 1, medianStockAge: 1 }]),
    ).toEqual([r]);
    expect(cellText(SUMMARY_COLUMNS[1], row({}))).toBe('4 кв. 2026 г.');
  });

  it.each([
    [{ key: 'avgMeterPrice', dir: 'asc' }, ['b', 'a', 'c']],
    [{ key: 'avgMeterPrice', dir: 'desc' }, ['c', 'a', 'b']],
    [{ key: 'buildingName', dir: 'asc' }, ['a', 'c', 'b']],
    [{ key: 'settlementDate', dir: 'desc' }, ['c', 'a', 'b']],
    [null, ['a', 'b', 'c']],
  ] as const)('sorts by %j (natural order, nulls last)', (sort, ids) => {
    const rows = [
      row({ id: 'a', avgMeterPrice: 2, buildingName: '2', settlementDate: '2026-01-01' }),
      row({ id: 'b', avgMeterPrice: 1, buildingName: '10', settlementDate: null }),
      row({ id: 'c', avgMeterPrice: 3, buildingName: '3', settlementDate: '2027-01-01' }),
    ];
    expect(sortRows(rows, sort).map((r) => r.id)).toEqual(ids);
  });

  it.each([
    [0, 1, 0, 1],
    [100, 1, 100, 1],
    [101, 2, 1, 2],
    [250, 3, 50, 3],
    [250, 9, 50, 3],
  ])('%i rows, page %i → %i rows on page %i of the last', (count, page, onPage, expectedPage) => {
    const rows = Array.from({ length: count }, (_, i) => i);
    const result = pageOf(rows, page);
    expect(result.rows.length).toBe(onPage);
    expect(result.page).toBe(expectedPage);
    expect(result.pages).toBe(Math.max(1, Math.ceil(count / PAGE_SIZE)));
  });

  it('exports CSV for Excel: BOM, semicolons, decimal commas, quoted when needed', () => {
    const csv = summaryCsv([row({ buildingName: 'Корпус "А"; 2', maxDeveloperDiscount: 7.5 })]);
    expect(csv.startsWith('\uFEFFКорпус;Дата сдачи;Отделка;Комнатность;Квартир в продаже;')).toBe(true);
    const line = csv.split('\r\n')[1];
    expect(line).toBe(
      '"Корпус ""А""; 2";4 кв. 2026 г.;Без отделки;1-комнатная;3;400000,50;371093,75;300000,00;0,00;3,25;3,25;10,00;7,50;;;',
    );
  });
});
