/** Migration 15, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 15,
  name: 'the chessboard a project first shows, kept by its import (§11.1)',
  sql: `
-- The last day's board of the first building on sale, as the chessboard's response (gzipped JSON,
-- derive/chess.ts): a first look reads one row, not the building's timeline. Written by each project's
-- next import (or \`cena-metra rebuild\`); until then the chessboard reads the timeline as before.
create table chess_latest (
  project_id int primary key,
  body bytea not null
);
alter table chess_latest alter column body set storage external;
`,
};
