/** Migration 18, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 18,
  name: "prices as offered: a flat's record carries the developer's offer (§11.4)",
  sql: `
-- old price, prices by payment term, promo, booking fee, plan: one canonical JSON text, part of the record
-- (a row is written when it changes, as for a price); null when a list offers nothing beside the price
alter table flat_observation add column offer text;
alter table flat_segment add column offer text;
alter table flat_event add column offer text;
`,
};
