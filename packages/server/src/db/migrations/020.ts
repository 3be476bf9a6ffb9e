/** Migration 20, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 20,
  name: "the developer's promotions counted in the daily summaries (§11.4)",
  sql: `
-- PROMO_STARTED / PROMO_ENDED of a project's day, as its other events are counted (derive/timeline.ts);
-- the days already summarised are counted here from the kept events
alter table summary_project add column promo_started int not null default 0;
alter table summary_project add column promo_ended int not null default 0;
update summary_project sp set promo_started = e.started, promo_ended = e.ended
from (
  select project_id, day, count(*) filter (where kind = 'PROMO_STARTED')::int as started,
    count(*) filter (where kind = 'PROMO_ENDED')::int as ended
  from flat_event where kind in ('PROMO_STARTED', 'PROMO_ENDED') group by project_id, day
) e
where sp.project_id = e.project_id and sp.date = e.day;
`,
};
