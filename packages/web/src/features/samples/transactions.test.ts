import { describe, expect, it } from 'vitest';
import { type Transaction, transactionViews } from './transactions';

const row = (type: string, date: string): Transaction => ({
  amount: '1 000',
  account: '40702810…0001',
  name: `${type} ${date}`,
  date,
  type,
  business: 'ПИК',
});

describe('transactionViews', () => {
  it('labels each of the four template types in Russian with money in/out signs', () => {
    const v = transactionViews([
      row('deposit', '01.11.2026'),
      row('payment', '01.11.2026'),
      row('invoice', '01.11.2026'),
      row('withdrawal', '01.11.2026'),
    ]);
    expect(v.map((t) => [t.type, t.label, t.sign])).toEqual([
      ['deposit', 'Поступление', '+'],
      ['payment', 'Оплата', '−'],
      ['invoice', 'Счёт', '+'],
      ['withdrawal', 'Списание', '−'],
    ]);
  });

  it('sorts newest first by the dd.mm.yyyy date, across months and years', () => {
    const v = transactionViews([
      row('deposit', '31.12.2025'),
      row('deposit', '02.01.2026'),
      row('deposit', '15.11.2026'),
    ]);
    expect(v.map((t) => t.date)).toEqual(['15.11.2026', '02.01.2026', '31.12.2025']);
  });

  it('keeps a record of an unknown type as «Операция»', () => {
    const [v] = transactionViews([row('refund', '01.11.2026')]);
    expect(v?.label).toBe('Операция');
    expect(v?.name).toBe('refund 01.11.2026');
  });
});
