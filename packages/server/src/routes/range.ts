import { MAX_STATS_RANGE_YEARS } from '@cena-metra/contract';
import { minusMonths, toDay } from '../lib/days.js';
import { BadRequestError } from '../lib/errors.js';

/** The range checks of every series request (§4.2): from ≤ to, at most 15 years; a 400 naming the field. */
export function checkSeriesRange(from: string, to: string): void {
  if (toDay(from) > toDay(to)) throw new BadRequestError('to: дата окончания раньше даты начала (from)');
  if (toDay(from) < minusMonths(toDay(to), MAX_STATS_RANGE_YEARS * 12))
    throw new BadRequestError(`from: период длиннее ${MAX_STATS_RANGE_YEARS} лет`);
}
