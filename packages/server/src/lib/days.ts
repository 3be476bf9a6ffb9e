/**
 * Calendar days as integers (days since 1970-01-01, UTC). Every date in the engine is a day number:
 * comparisons and ranges are integer arithmetic, and no time zone can shift a date.
 */
const MS_PER_DAY = 86_400_000;

export function toDay(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / MS_PER_DAY);
}

// a store writes the same few hundred days for every row: each day is formatted once (a bounded cache)
const isoOfDay = new Map<number, string>();

export function fromDay(day: number): string {
  let iso = isoOfDay.get(day);
  if (iso === undefined) {
    iso = civil(day);
    if (isoOfDay.size >= 100_000) isoOfDay.clear();
    isoOfDay.set(day, iso);
  }
  return iso;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * 'YYYY-MM-DD' of a day by integer arithmetic (H. Hinnant's days → civil date, proleptic Gregorian): a
 * first stats request formats a date for each of a project's snapshots, and a Date for each cost ~5 µs.
 * Years 0–9999 (the contract's dates are within them).
 */
function civil(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

/** The same calendar day `months` months earlier, clamped to the month's last day (31 Mar − 1 month = 28/29 Feb). */
export function minusMonths(day: number, months: number): number {
  const d = new Date(day * MS_PER_DAY);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const target = new Date(Date.UTC(y, m, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return Math.round(target.getTime() / MS_PER_DAY);
}

export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The calendar date at `now` in a time zone (a collection at 06:00 Moscow time is for that Moscow day). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
