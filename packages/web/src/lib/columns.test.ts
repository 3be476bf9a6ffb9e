import { sheetCsv } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import {
  type Column,
  cellText,
  nextSort,
  sheetOf,
  shownColumns,
  sortableColumns,
  sortRowsBy,
} from './columns';

interface Row {
  name: string;
  price: number | null;
  day: string;
  area: number;
}
const rows: Row[] = [
  { name: 'Корпус 10', price: 300, day: '2026-11-02', area: 35.5 },
  { name: 'Корпус 2', price: null, day: '2026-11-01', area: 40 },
  { name: 'корпус 1', price: 100, day: '2026-11-03', area: 1234.25 },
];
const columns: Column<Row>[] = [
  { key: 'name', label: 'Корпус', type: 'text', value: (r) => r.name },
  { key: 'price', label: 'Цена', header: 'Цена, ₽', type: 'integer', value: (r) => r.price },
  { key: 'day', label: 'Дата', type: 'date', value: (r) => r.day },
  { key: 'area', label: 'Площадь', type: 'decimal', value: (r) => r.area },
  { key: 'pick', label: '', type: 'text', value: () => null, exported: false, sortable: false },
  { key: 'lat', label: 'Широта', type: 'decimal', value: () => 55.5, shown: false },
];

describe('a column model: one list of columns for the cells, the order and the files', () => {
  it('sorts by a column, empty values last whichever the direction; names in natural Russian order', () => {
    const by = (key: string, dir: 'asc' | 'desc') =>
      sortRowsBy(rows, columns, { key, dir }).map((r) => r.name);
    expect(by('price', 'asc')).toEqual(['корпус 1', 'Корпус 10', 'Корпус 2']);
    expect(by('price', 'desc')).toEqual(['Корпус 10', 'корпус 1', 'Корпус 2']);
    expect(by('name', 'asc')).toEqual(['корпус 1', 'Корпус 2', 'Корпус 10']);
    expect(by('day', 'desc')).toEqual(['корпус 1', 'Корпус 10', 'Корпус 2']);
    expect(sortRowsBy(rows, columns, null)).toBe(rows);
  });

  it('shows values in Russian form, «—» for none', () => {
    expect(columns.map((c) => cellText(c, rows[2]))).toEqual([
      'корпус 1',
      '100',
      '03.11.2026',
      '1\u00a0234,25',
      '—',
      '55,50',
    ]);
    expect(cellText(columns[1], rows[1])).toBe('—');
  });

  it('exports the exported columns with their headers and types; shows the shown ones', () => {
    const sheet = sheetOf('Дома', columns, rows);
    expect(sheet.columns.map((c) => [c.header, c.type])).toEqual([
      ['Корпус', 'text'],
      ['Цена, ₽', 'integer'],
      ['Дата', 'date'],
      ['Площадь', 'decimal'],
      ['Широта', 'decimal'],
    ]);
    expect(sheetCsv(sheet).split('\r\n')[1]).toBe('Корпус 10;300;2026-11-02;35,50;55,50');
    expect(shownColumns(columns).map((c) => c.key)).toEqual(['name', 'price', 'day', 'area', 'pick']);
    expect(sortableColumns(columns).map((c) => c.key)).toEqual(['name', 'price', 'day', 'area']);
  });

  it('a header click: ascending, descending, then as given', () => {
    const a = nextSort(null, 'price');
    const b = nextSort(a, 'price');
    expect([a, b, nextSort(b, 'price')]).toEqual([
      { key: 'price', dir: 'asc' },
      { key: 'price', dir: 'desc' },
      null,
    ]);
    expect(nextSort(b, 'name')).toEqual({ key: 'name', dir: 'asc' });
  });
});
