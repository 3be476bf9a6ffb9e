import { describe, expect, it } from 'vitest';
import { pipeline, quarterOf, quartersBetween } from './registry-pipeline.js';

describe('the registry pipeline', () => {
  it('names quarters and lists them in order across years', () => {
    expect(quarterOf('2026-12-31')).toBe('2026-Q4');
    expect(quarterOf('2027-01-01')).toBe('2027-Q1');
    expect(quartersBetween('2026-11-15', '2027-05-01')).toEqual(['2026-Q4', '2027-Q1', '2027-Q2']);
  });
  it('counts launches by publication (else first seen) and completions by declared quarter, unsold apart', () => {
    const rows = pipeline(
      [
        {
          publishedDay: '2026-02-10',
          firstDay: '2026-05-01',
          readyDay: '2027-06-30',
          flats: 100,
          salesTotal: 100,
          salesRealised: 40,
        },
        { firstDay: '2026-05-01', readyDay: '2027-06-30', flats: 50, soldShare: 0.5 },
        { firstDay: '2026-05-01', readyDay: '2027-09-30', flats: 20 },
      ],
      '2026-01-01',
      '2027-09-30',
    );
    const q = (key: string) => rows.find((r) => r.quarter === key)!;
    expect(q('2026-Q1')).toMatchObject({ launches: 1, launchedFlats: 100 });
    expect(q('2026-Q2')).toMatchObject({ launches: 2, launchedFlats: 70 });
    expect(q('2027-Q2')).toEqual({
      quarter: '2027-Q2',
      launches: 0,
      launchedFlats: 0,
      completions: 2,
      completingFlats: 150,
      unsold: 85,
      soldShare: 0.4333,
    });
    // an object that says nothing of its sales has no unsold figure
    expect(q('2027-Q3')).toMatchObject({
      completions: 1,
      completingFlats: 20,
      unsold: null,
      soldShare: null,
    });
  });
});
