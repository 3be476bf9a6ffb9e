/** Migration 36, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 36,
  name: 'the latest window’s fit of a kept place kept beside its links (a flat’s fair price reads it)',
  sql: `
-- A flat's fair price is priced by the fit of its segment's window ending with its project's latest month
-- (DESIGN §12.4): at 5,000 projects a city's window is its projects' fifteen months read and fitted, ~100 ms a
-- city. The round that keeps the links keeps that fit too (its months, δ, β and the projects' effects) for the
-- whole market, each region and city, all rooms; a reader takes it while the row's members are its segment's.
-- Rows made before have none: the next round that makes the row again keeps it.
alter table hedonic_link add column fit bytea;
`,
};
