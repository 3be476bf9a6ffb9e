import { knownAt } from './events.js';
import { insertRow, rowIndex, stateAt } from './rows.js';
import { type ObservationRow, sameRecord } from './types.js';

/**
 * Partial scans (DESIGN §10.4) as the engine reads a flat's log: at a partial snapshot k, a flat the list
 * leaves out but that was active (as known) at snapshot k − 1 is present at k with that record; its own
 * state resumes at k + 1. So a partial list removes nothing and moves no flat's absence count.
 *
 * `rows` is the flat's canonical log (a row where its listed state changes); the result is canonical too.
 * `partialKs` are the indices of the partial snapshots, ascending. Rows are copied only when changed.
 */
export function withPartialScans(
  rows: ObservationRow[],
  dates: number[],
  partialKs: readonly number[],
  grace: number,
  carry: number,
): ObservationRow[] {
  let out = rows;
  for (const k of partialKs) {
    if (k < 1) continue;
    const day = dates[k];
    if (out.length === 0 || out[0].day > day) continue;
    if (stateAt(out, day) !== null) continue; // listed there
    const before = knownAt(out, dates, k - 1, grace, carry);
    if (!before.active) continue;
    if (out === rows) out = [...rows];
    const own = rowIndex(out, day);
    if (own >= 0) out.splice(own, 1);
    if (!sameRecord(stateAt(out, dates[k - 1]), before.rec)) insertRow(out, { day, rec: before.rec });
    // the raw state after k was absent (the flat was absent at k): it resumes at k + 1
    if (k + 1 < dates.length && rowIndex(out, dates[k + 1]) < 0)
      insertRow(out, { day: dates[k + 1], rec: null });
  }
  return out;
}
