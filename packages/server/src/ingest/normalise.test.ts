import { describe, expect, it } from 'vitest';
import { fromDay, minusMonths, toDay } from '../lib/days.js';
import { normaliseFinish, normaliseSettlementDate } from './normalise.js';

describe('finish normalisation (§3.2)', () => {
  it.each([
    ['без отделки', 'BLACK'],
    ['BLACK', 'BLACK'],
    ['предчистовая', 'WHITE'],
    ['white box', 'WHITE'],
    ['Подчистовая', 'WHITE'],
    ['Отделка WhiteBox', 'WHITE'],
    ['с отделкой', 'FINE_FINISHING'],
    ['чистовая', 'FINE_FINISHING'],
    ['Отделка', 'FINE_FINISHING'],
    ['FINE_FINISHING', 'FINE_FINISHING'],
    ['с мебелью', 'FURNITURE'],
    ['дизайнерская', 'UNKNOWN'],
    [undefined, 'UNKNOWN'],
    ['', 'UNKNOWN'],
  ])('%s → %s', (input, expected) => expect(normaliseFinish(input)).toBe(expected));
});

describe('settlement date normalisation (§3.2)', () => {
  it.each([
    ['2026-12-31', '2026-12-31'],
    ['4 кв. 2026', '2026-12-31'],
    ['1 кв. 2027', '2027-03-31'],
    ['2 кв 2025 г.', '2025-06-30'],
    ['Q3 2026', '2026-09-30'],
    ['2027', '2027-12-31'],
    [2028, '2028-12-31'],
    ['до 30 августа 2023', '2023-08-30'],
    ['Заселение до 15 марта 2023', '2023-03-15'],
    [null, null],
    ['', null],
    ['2026-02-30', undefined],
    ['скоро', undefined],
    ['5 кв. 2026', undefined],
    // §10.3: a delivered building is «Сдан», apart from a missing date
    ['Сдан', 'DONE'],
    ['Дом сдан', 'DONE'],
    ['дом  сдан', 'DONE'],
    ['Готовая квартира', 'DONE'],
    ['Готов', 'DONE'],
    ['Ключи выданы', 'DONE'],
    ['DONE', 'DONE'],
    ['сдача в 2026', undefined],
  ])('%s → %s', (input, expected) => expect(normaliseSettlementDate(input)).toBe(expected));
});

describe('calendar windows', () => {
  it.each([
    ['2026-03-31', 1, '2026-02-28'],
    ['2024-03-31', 1, '2024-02-29'],
    ['2026-11-20', 1, '2026-10-20'],
    ['2024-02-29', 12, '2023-02-28'],
    ['2026-01-15', 1, '2025-12-15'],
  ])('%s − %i months = %s', (from, months, expected) =>
    expect(fromDay(minusMonths(toDay(from), months))).toBe(expected),
  );
});
