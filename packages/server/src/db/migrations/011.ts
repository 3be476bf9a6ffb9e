/** Migration 11, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 11,
  name: 'first presences kept on the flat (DESIGN §11.1)',
  sql: `
-- A flat's first presence (§10.5: days on market, stock age, the chessboard, «снова в продаже»): kept by the
-- import (derive/first-seen.ts), filled here from the observations by the same rule.
alter table flat add column first_seen date;
update flat f set first_seen = o.first
  from (select flat_id, min(snapshot_date) as first from flat_observation where present group by flat_id) o
  where o.flat_id = f.id;
`,
};
