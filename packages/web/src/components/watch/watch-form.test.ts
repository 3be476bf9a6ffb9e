import { describe, expect, it } from 'vitest';
import { readWatchForm } from './watch-form';

const rules = { price: true, minChangePercent: null, removed: true, back: true, fresh: true, promo: false };
const none = {
  price: false,
  minChangePercent: null,
  removed: false,
  back: false,
  fresh: false,
  promo: false,
};

describe('the watch rules dialog', () => {
  it.each([
    ['', '', rules, true, { rules: { ...rules, minChangePercent: null }, maxPrice: null }],
    ['2,5', '15 000 000', rules, true, { rules: { ...rules, minChangePercent: 2.5 }, maxPrice: 15_000_000 }],
    ['3', '', rules, false, { rules: { ...rules, minChangePercent: 3, fresh: false }, maxPrice: null }],
    ['0', '', rules, true, { problem: 'Порог изменения цены — число от 0,1 до 100 %' }],
    ['101', '', rules, true, { problem: 'Порог изменения цены — число от 0,1 до 100 %' }],
    ['пять', '', rules, true, { problem: 'Порог изменения цены — число от 0,1 до 100 %' }],
    ['', '-5', rules, true, { problem: 'Цена до — целое число рублей больше нуля' }],
    ['', '1.5', rules, true, { problem: 'Цена до — целое число рублей больше нуля' }],
    ['', '', none, true, { problem: 'Выберите хотя бы одно событие' }],
    ['', '', { ...none, fresh: true }, false, { problem: 'Выберите хотя бы одно событие' }],
    ['', '', { ...none, fresh: true }, true, { rules: { ...none, fresh: true }, maxPrice: null }],
    // the developer's promotion alone is an event chosen, for a flat as for a segment
    ['', '', { ...none, promo: true }, false, { rules: { ...none, promo: true }, maxPrice: null }],
  ])('%j, %j → %j', (threshold, maxPrice, r, allowFresh, expected) => {
    expect(readWatchForm(r, threshold, maxPrice, allowFresh)).toEqual(expected);
  });
});
