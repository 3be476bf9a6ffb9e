import { z } from 'zod';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The earliest date a snapshot or a query may name: nothing older is a price list we could hold. */
export const MIN_DATA_DATE = '2000-01-01';

/**
 * The latest date a snapshot or a query may name: tomorrow on the server's clock (a list dated in the
 * morning of the next day by a source in another time zone is still real; 9999-12-31 is not).
 */
export function maxDataDate(now: Date = new Date()): string {
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}`;
}

/** Why a date cannot be a data date (outside MIN_DATA_DATE … tomorrow), or null when it can. */
export function dataDateProblem(value: string, now: Date = new Date()): string | null {
  if (!isIsoDate(value)) return 'должно быть датой в формате ГГГГ-ММ-ДД';
  const max = maxDataDate(now);
  if (value < MIN_DATA_DATE || value > max) return `должно быть датой от ${MIN_DATA_DATE} до ${max}`;
  return null;
}

/** A calendar date YYYY-MM-DD (any year): settlement dates and other facts that may lie far ahead. */
export const isoDateSchema = z
  .string()
  .refine(isIsoDate, { message: 'должно быть датой в формате ГГГГ-ММ-ДД' });

/** A date of data (a query's from/to/date/before): a real date between MIN_DATA_DATE and tomorrow. */
export const dataDateSchema = z.string().superRefine((value, ctx) => {
  const problem = dataDateProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
