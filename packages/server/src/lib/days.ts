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
    iso = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    if (isoOfDay.size >= 100_000) isoOfDay.clear();
    isoOfDay.set(day, iso);
  }
  return iso;
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
