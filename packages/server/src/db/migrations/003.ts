/** Migration 3, of the product as first built. Append only: a released migration is never edited. */
export default {
  id: 3,
  name: 'price-changes export: indexes for reading events in the order of a price sort, page by page',
  sql: `
-- The CSV export reads events in pages after the last row sent (keyset): a page by change or by new price
-- starts from these instead of sorting every event of the range for each page.
create index flat_event_change on flat_event (change_percent) where change_percent is not null;
create index flat_event_new_price on flat_event (new_price) where new_price is not null;
-- PGlite never analyzes by itself: plan the pages with statistics
analyze flat_event;
`,
};
