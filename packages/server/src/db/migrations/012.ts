/** Migration 12, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 12,
  name: 'a building’s flats found by index (the chessboard, DESIGN §11.1)',
  sql: `
-- The chessboard reads one building: its list of buildings, the first one selling and its flats' segments are
-- index lookups, not a scan of the project's whole timeline.
create index flat_segment_building on flat_segment (project_id, building, flat_id);
`,
};
