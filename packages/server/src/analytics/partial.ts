import { knownAt } from './events.js';
import { type FlatRecord, type ObservationRow, sameRecord } from './types.js';

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
    if (stateOn(out, day) !== null) continue; // listed there
    const before = knownAt(out, dates, k - 1, grace, carry);
    if (!before.active) continue;
    if (out === rows) out = [...rows];
    const own = exactRow(out, day);
    if (own >= 0) out.splice(own, 1);
    if (!sameRecord(stateOn(out, dates[k - 1]), before.rec)) put(out, { day, rec: before.rec });
    // the raw state after k was absent (the flat was absent at k): it resumes at k + 1
    if (k + 1 < dates.length && exactRow(out, dates[k + 1]) < 0) put(out, { day: dates[k + 1], rec: null });
  }
  return out;
}

function stateOn(rows: ObservationRow[], day: number): FlatRecord | null {
  let found: FlatRecord | null = null;
  for (const r of rows) {
    if (r.day > day) break;
    found = r.rec;
  }
  return found;
}

function exactRow(rows: ObservationRow[], day: number): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i].day === day) return i;
    if (rows[i].day < day) return -1;
  }
  return -1;
}

function put(rows: ObservationRow[], row: ObservationRow): void {
  let i = rows.length;
  while (i > 0 && rows[i - 1].day > row.day) i--;
  rows.splice(i, 0, row);
}
