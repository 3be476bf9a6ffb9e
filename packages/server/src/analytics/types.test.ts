import { describe, expect, it } from 'vitest';
import { type FlatRecord, RECORD_KEYS, sameRecord } from './types.js';

const rec: FlatRecord = {
  building: '1',
  section: '2',
  floor: 3,
  number: '45',
  rooms: 2,
  area: 55.5,
  facing: 'WHITE',
  settlementDate: '2026-12-31',
  price: 12_000_000,
  basePrice: 12_500_000,
  status: 'AVAILABLE',
  offer: null,
};

describe('sameRecord', () => {
  it('is true for equal records and false when any one field differs', () => {
    expect(RECORD_KEYS).toHaveLength(12);
    expect(sameRecord(rec, { ...rec })).toBe(true);
    expect(sameRecord(null, null)).toBe(true);
    expect(sameRecord(rec, null)).toBe(false);
    for (const key of RECORD_KEYS) {
      const other = { ...rec, [key]: key === 'offer' ? '{"promo":"x"}' : null };
      expect(sameRecord(rec, other), key).toBe(false);
      expect(sameRecord(other, rec), key).toBe(false);
    }
  });
});
