import { describe, expect, it } from 'vitest';
import { defaultPeriod, quarterName } from './pipeline';

describe('«Старты и ввод»', () => {
  it('names a quarter as the registry writes it', () => {
    expect(quarterName('2027-Q4')).toBe('IV кв. 2027');
    expect(quarterName('2026-Q1')).toBe('I кв. 2026');
  });
  it('looks two years back and three ahead by default', () => {
    expect(defaultPeriod('2026-11-27')).toEqual({ from: '2024-01-01', to: '2029-12-31' });
  });
});
