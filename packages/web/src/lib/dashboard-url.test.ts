import { describe, expect, it } from 'vitest';
import { readFilters, withDeveloper, withProject, writeFilters } from './dashboard-url';

describe('dashboard filters in the URL', () => {
  it.each([
    ['', { developerId: 5, projectId: null, chartType: 'NONE', from: null, to: null, smooth: true }],
    [
      'developer=3&project=12&type=FACING&from=2025-01-01&to=2025-06-30&smooth=0',
      {
        developerId: 3,
        projectId: 12,
        chartType: 'FACING',
        from: '2025-01-01',
        to: '2025-06-30',
        smooth: false,
      },
    ],
    // nonsense falls back to the defaults instead of breaking the page
    [
      'developer=abc&project=-1&type=PIE&from=2025-13-01&to=yesterday',
      { developerId: 5, projectId: null, chartType: 'NONE', from: null, to: null, smooth: true },
    ],
  ])('reads %j', (query, filters) => {
    expect(readFilters(new URLSearchParams(query))).toEqual(filters);
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    const filters = readFilters(new URLSearchParams('developer=3&type=BUILDING&smooth=0'));
    expect(writeFilters(filters).toString()).toBe('developer=3&type=BUILDING&smooth=0');
    expect(writeFilters(readFilters(new URLSearchParams())).toString()).toBe('');
  });

  it('a new developer resets project and dates; a new project resets the start date (spec §4)', () => {
    const f = readFilters(
      new URLSearchParams('developer=3&project=12&from=2025-01-01&to=2025-06-30&type=FACING'),
    );
    expect(withDeveloper(f, 4)).toMatchObject({
      developerId: 4,
      projectId: null,
      from: null,
      to: null,
      chartType: 'FACING',
    });
    expect(withProject(f, 13)).toMatchObject({ developerId: 3, projectId: 13, from: null, to: '2025-06-30' });
  });
});
