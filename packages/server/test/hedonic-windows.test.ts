import fc from 'fast-check';
import { expect, it } from 'vitest';
import { decodeWindows, encodeWindows } from '../src/db/kept.js';
import {
  type MonthStamp,
  periodsToRefit,
  runsOf,
  stampsByProject,
  windowsOf,
} from '../src/use-cases/hedonic-windows.js';

// The hedonic links' windows (use-cases/hedonic-windows.ts): a window's hash moves exactly when one of its
// members' months in it is rewritten, added or taken away, or the members change.

const WINDOW = 13;

/** Projects' months (ascending per project) with stamps. */
const months = fc
  .array(
    fc.record({
      first: fc.integer({ min: 600, max: 640 }),
      count: fc.integer({ min: 1, max: 30 }),
      stamp: fc.integer({ min: 0, max: 1000 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((projects) =>
    projects.flatMap(({ first, count, stamp }, i) =>
      Array.from(
        { length: count },
        (_, k): MonthStamp => ({ project: i + 1, period: first + k, stamp: stamp + k }),
      ),
    ),
  );

it('a rewritten month refits exactly the windows that hold it; the windows read back as written', () => {
  fc.assert(
    fc.property(months, fc.nat(), (rows, pick) => {
      const members = [...new Set(rows.map((r) => r.project))];
      const before = windowsOf(members, stampsByProject(rows), WINDOW);
      expect(decodeWindows(encodeWindows(before))).toEqual(before);
      expect(periodsToRefit(before, before)).toEqual([]);
      const changed = rows[pick % rows.length];
      const after = windowsOf(
        members,
        stampsByProject(rows.map((r) => (r === changed ? { ...r, stamp: r.stamp + 5000 } : r))),
        WINDOW,
      );
      const last = before.first + before.hashes.length / 2 - 1;
      const expected = Array.from({ length: last - before.first + 1 }, (_, i) => before.first + i).filter(
        (p) => p >= changed.period && p < changed.period + WINDOW,
      );
      expect(periodsToRefit(before, after)).toEqual(expected);
      // nothing kept, or a member gone: every window / the windows of its months
      expect(periodsToRefit(null, after).length).toBe(after.hashes.length / 2);
      if (members.length > 1) {
        const fewer = windowsOf(members.slice(1), stampsByProject(rows), WINDOW);
        const gone = rows.filter((r) => r.project === members[0]);
        for (const p of periodsToRefit(before, fewer))
          expect(
            gone.some((r) => r.period <= p && r.period > p - WINDOW) || p < before.first || p > last,
          ).toBe(true);
      }
    }),
  );
});

it('a month taken away or added moves its windows; the runs of periods are consecutive', () => {
  const rows: MonthStamp[] = [601, 602, 603, 610].map((period) => ({ project: 7, period, stamp: 1 }));
  const before = windowsOf([7], stampsByProject(rows), 3);
  expect(before.first).toBe(601);
  expect(before.hashes.length).toBe(2 * 10);
  const without = windowsOf([7], stampsByProject(rows.filter((r) => r.period !== 602)), 3);
  expect(periodsToRefit(before, without)).toEqual([602, 603, 604]);
  const longer = windowsOf([7], stampsByProject([...rows, { project: 7, period: 611, stamp: 9 }]), 3);
  expect(periodsToRefit(before, longer)).toEqual([611]);
  expect(runsOf([1, 2, 3, 7, 9, 10])).toEqual([
    [1, 3],
    [7, 7],
    [9, 10],
  ]);
  expect(windowsOf([], new Map(), 3)).toEqual({ first: 0, hashes: new Uint32Array(0) });
});
