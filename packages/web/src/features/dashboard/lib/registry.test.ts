import { describe, expect, it } from 'vitest';
import { declaredDate, monthName, monthsText } from './registry';

describe('the registry panel’s words', () => {
  it('says a declared date as the registry declares it: a quarter, or a day', () => {
    expect(declaredDate({ day: '2027-12-31', quarter: true })).toBe('IV кв. 2027');
    expect(declaredDate({ day: '2027-03-31', quarter: true })).toBe('I кв. 2027');
    expect(declaredDate({ day: '2026-09-30', quarter: false })).toBe('30.09.2026');
    expect(declaredDate(null)).toBe('—');
  });
  it('names a month in Russian', () => {
    expect(monthName('2025-06')).toBe('июнь 2025');
  });
  it('signs the months moved', () => {
    expect([monthsText(6), monthsText(-3), monthsText(0), monthsText(1.5)]).toEqual([
      '+6 мес.',
      '−3 мес.',
      '0',
      '+1,5 мес.',
    ]);
  });
});
