import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromDay, toDay } from './days.js';

describe('calendar days', () => {
  it('a day formats as the Date of its midnight does, and reads back (years 0–9999)', () => {
    const first = toDay('0000-01-01');
    const last = toDay('9999-12-31');
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), (day) => {
        const iso = fromDay(day);
        expect(iso).toBe(new Date(day * 86_400_000).toISOString().slice(0, 10));
        expect(toDay(iso)).toBe(day);
      }),
      { numRuns: 5_000, seed: 1125 },
    );
    // the edges, leap days, the epoch
    for (const iso of ['0000-01-01', '1970-01-01', '2000-02-29', '2024-02-29', '2100-03-01', '9999-12-31'])
      expect(fromDay(toDay(iso))).toBe(iso);
  });
});
