/** Migration 35, of the fourth stage (DESIGN §12). Append only: a released migration is never edited. */
export default {
  id: 35,
  name: 'the hedonic months stamped as written, the kept links’ windows named by them (a round refits what changed)',
  sql: `
-- Each written month of a project's hedonic sums takes the next stamp: a month rewritten by an import has a new
-- one. A kept segment's row names, for every window it was fitted from, a hash of its members' months and their
-- stamps (use-cases/hedonic-links.ts): the next round refits only the windows whose hash differs. The rows
-- written before this migration have no stamp (0 is read for them: they are not rewritten unless they change),
-- and the kept rows no windows (their first round refits them whole).
create sequence hedonic_month_stamp as integer;
alter table hedonic_month add column stamp integer;
alter table hedonic_month alter column stamp set default nextval('hedonic_month_stamp');
alter table hedonic_link add column windows bytea;
`,
};
