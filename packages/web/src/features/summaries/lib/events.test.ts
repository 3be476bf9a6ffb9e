import { describe, expect, it } from 'vitest';
import { changeTone, formatChange } from '../../../lib/changes';
import { groupEvents, promoText } from './events';

const event = (kind: 'NEW' | 'REMOVED' | 'PRICE_UP' | 'PRICE_DOWN', flatId: number) => ({
  kind,
  flatId,
  building: '1',
  rooms: 1,
  area: 40,
  floor: 3,
  facing: 'BLACK' as const,
  oldPrice: null,
  newPrice: null,
  changePercent: null,
  oldArea: null,
  gapDays: 1,
  afterGap: false,
});

describe('summary events', () => {
  it('groups by kind: cheaper, dearer, new, removed; empty kinds left out', () => {
    const groups = groupEvents([
      event('NEW', 1),
      event('PRICE_UP', 2),
      event('NEW', 3),
      event('PRICE_DOWN', 4),
    ]);
    expect(groups.map((g) => [g.label, g.events.map((e) => e.flatId)])).toEqual([
      ['Подешевели', [4]],
      ['Подорожали', [2]],
      ['Новые в продаже', [1, 3]],
    ]);
  });

  it.each([
    [-5, '−5,00\u00a0%', 'down'],
    [3.25, '+3,25\u00a0%', 'up'],
    [0, '0,00\u00a0%', 'none'],
    [null, '—', 'none'],
  ] as const)('%s → %s, %s', (value, text, tone) => {
    expect(formatChange(value)).toBe(text);
    expect(changeTone(value)).toBe(tone);
  });

  it('writes the day\u2019s promotions as started / ended, 0 for none', () => {
    expect(promoText(0, 0)).toBe('0');
    expect(promoText(3, 1)).toBe('+3 / −1');
    expect(promoText(0, 2)).toBe('+0 / −2');
  });
});
