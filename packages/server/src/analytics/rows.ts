import type { FlatRecord, ObservationRow } from './types.js';

// A flat's observation log (rows sorted by day): the lookups and edits the model and §10.4 share.

/** The state in force on `day`: the last row dated on or before it (absent when none). */
export function stateAt(rows: ObservationRow[], day: number): FlatRecord | null {
  let lo = 0;
  let hi = rows.length - 1;
  let found: ObservationRow | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].day <= day) {
      found = rows[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ? found.rec : null;
}

/** The index of the row dated exactly `day`, or -1. */
export function rowIndex(rows: ObservationRow[], day: number): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i].day === day) return i;
    if (rows[i].day < day) return -1;
  }
  return -1;
}

/** Inserts a row in day order. */
export function insertRow(rows: ObservationRow[], row: ObservationRow): void {
  let i = rows.length;
  while (i > 0 && rows[i - 1].day > row.day) i--;
  rows.splice(i, 0, row);
}
