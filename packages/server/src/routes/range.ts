import { MAX_STATS_RANGE_YEARS } from '@cena-metra/contract';
import { minusMonths, toDay } from '../lib/days.js';
import { BadRequestError } from '../lib/errors.js';

/** The range checks of every series request (§4.2): from ≤ to, at most 15 years; a 400 naming the field. */
export function checkSeriesRange(from: string, to: string): void {
  if (toDay(from) > toDay(to)) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
  if (toDay(from) < minusMonths(toDay(to), MAX_STATS_RANGE_YEARS * 12))
    throw new BadRequestError(`from: период длиннее ${MAX_STATS_RANGE_YEARS} лет`);
}

/**
 * The series answers written as the reader made them: a point a day over years, each made by the reader to
 * the response schema's shape, key by key. Parsing each again on every answer was a third of a first pace
 * request (~35 ms of a 3-year project's, docs/performance.md, session 22); the API tests hold every body
 * of pace, index, market pace and the comparison equal to the schema's output.
 */
export const asMade = () => (data: unknown) => JSON.stringify(data);
