/** Migration 22, of the third stage (DESIGN §11). Append only: a released migration is never edited. */
export default {
  id: 22,
  name: "each project's discounts on its last day kept beside its summary table (§4.3)",
  sql: `
-- per period (DAY, WEEK, MONTH, YEAR) and basis (history, developer): active and discounted flats, the
-- largest and the mean discount, avg ppm — what the market's discounts table reads for each project, JSON;
-- null until the project's next import (or cena-metra rebuild): read from the flats then, as before
alter table project_latest add column discounts text;
`,
};
