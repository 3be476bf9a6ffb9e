import { describe, expect, it } from 'vitest';
import {
  type DashboardFilters,
  DEFAULT_FROM,
  pickDeveloperId,
  pickStats,
  readFilters,
  withDeveloper,
  withProject,
  writeFilters,
} from './dashboard-url';

/** What an empty or nonsensical query reads as. */
const DEFAULTS = {
  developerId: 5,
  projectId: null,
  chartType: 'NONE',
  from: null,
  to: null,
  smooth: true,
  availableOnly: false,
  index: false,
};

describe('dashboard filters in the URL', () => {
  it.each([
    ['', DEFAULTS],
    [
      'developer=3&project=12&type=FACING&from=2025-01-01&to=2025-06-30&smooth=0',
      {
        developerId: 3,
        projectId: 12,
        chartType: 'FACING',
        from: '2025-01-01',
        to: '2025-06-30',
        smooth: false,
        availableOnly: false,
        index: false,
      },
    ],
    // nonsense falls back to the defaults instead of breaking the page
    ['developer=abc&project=-1&type=PIE&from=2025-13-01&to=yesterday', DEFAULTS],
  ])('reads %j', (query, filters) => {
    expect(readFilters(new URLSearchParams(query))).toEqual(filters);
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    const filters = readFilters(
      new URLSearchParams('developer=3&type=BUILDING&smooth=0&status=available&index=1'),
    );
    expect(filters.availableOnly).toBe(true);
    expect(filters.index).toBe(true);
    expect(writeFilters(filters).toString()).toBe(
      'developer=3&type=BUILDING&smooth=0&status=available&index=1',
    );
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

describe('what the dashboard shows (shared with its prefetch)', () => {
  const filters = (over: Partial<DashboardFilters> = {}): DashboardFilters => ({
    ...readFilters(new URLSearchParams()),
    ...over,
  });
  const projects = [
    { id: 7, minFlatCreatedAt: '2024-02-01', lastSnapshotDate: '2026-11-20' },
    { id: 9, minFlatCreatedAt: null, lastSnapshotDate: null },
    // listed on Moscow's 24th while the browser, west of Moscow, still has the 23rd
    { id: 11, minFlatCreatedAt: '2026-11-24', lastSnapshotDate: '2026-11-24' },
  ];

  it('takes the developer of the URL when it exists, else the first, and waits for the list', () => {
    expect(pickDeveloperId(filters({ developerId: 3 }), [{ id: 1 }, { id: 3 }])).toBe(3);
    expect(pickDeveloperId(filters({ developerId: 4 }), [{ id: 1 }, { id: 3 }])).toBe(1);
    expect(pickDeveloperId(filters({ developerId: 4 }), [])).toBeNull();
    expect(pickDeveloperId(filters({ developerId: 4 }), undefined)).toBe(4);
  });

  it('takes the project of the URL or the first, its first flat as the start, today as the end', () => {
    expect(pickStats(filters({ projectId: 9 }), projects, '2026-11-22').statsRequest).toEqual({
      projectId: 9,
      from: DEFAULT_FROM,
      to: '2026-11-22',
      status: 'ALL',
    });
    expect(pickStats(filters({ projectId: 99 }), projects, '2026-11-22').statsRequest).toEqual({
      projectId: 7,
      from: '2024-02-01',
      to: '2026-11-22',
      status: 'ALL',
    });
    expect(
      pickStats(filters({ from: '2025-01-01', to: '2025-02-01' }), projects, '2026-11-22').statsRequest,
    ).toEqual({ projectId: 7, from: '2025-01-01', to: '2025-02-01', status: 'ALL' });
    // «только свободные» asks for status AVAILABLE
    expect(pickStats(filters({ availableOnly: true }), projects, '2026-11-22').statsRequest?.status).toBe(
      'AVAILABLE',
    );
    const reversed = pickStats(filters({ from: '2025-03-01', to: '2025-02-01' }), projects, '2026-11-22');
    expect(reversed.rangeError).toBe('Дата начала позже даты окончания');
    expect(reversed.statsRequest).toBeNull();
    expect(pickStats(filters(), undefined, '2026-11-22').statsRequest).toBeNull();
  });

  it("reaches a last snapshot dated after the browser's today (lists are dated in Moscow), but not a chosen end", () => {
    const west = pickStats(filters({ projectId: 11 }), projects, '2026-11-23');
    expect(west.rangeError).toBeNull();
    expect(west.statsRequest).toEqual({ projectId: 11, from: '2026-11-24', to: '2026-11-24', status: 'ALL' });
    // a later today still wins, and an end in the URL is kept (a reversed range is the user's to mend)
    expect(pickStats(filters({ projectId: 11 }), projects, '2026-11-25').to).toBe('2026-11-25');
    expect(pickStats(filters({ projectId: 11, to: '2026-11-23' }), projects, '2026-11-23').rangeError).toBe(
      'Дата начала позже даты окончания',
    );
  });
});
