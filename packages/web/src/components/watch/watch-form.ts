import type { WatchRules } from '@cena-metra/contract';

/**
 * The rules dialog's fields read: the threshold (empty = any change, else 0,1–100 %, a comma allowed),
 * the price cap (empty = none, else whole roubles, spaces allowed), at least one event chosen.
 */
export function readWatchForm(
  rules: WatchRules,
  threshold: string,
  maxPrice: string,
  allowFresh: boolean,
): { rules: WatchRules; maxPrice: number | null } | { problem: string } {
  const t = threshold.trim().replace(',', '.');
  const min = t === '' ? null : Number(t);
  if (min !== null && !(Number.isFinite(min) && min >= 0.1 && min <= 100))
    return { problem: 'Порог изменения цены — число от 0,1 до 100 %' };
  const cap = maxPrice.replace(/\s/g, '');
  const price = cap === '' ? null : Number(cap);
  if (price !== null && !(Number.isInteger(price) && price > 0))
    return { problem: 'Цена до — целое число рублей больше нуля' };
  if (!rules.price && !rules.removed && !rules.back && !rules.promo && !(allowFresh && rules.fresh))
    return { problem: 'Выберите хотя бы одно событие' };
  return { rules: { ...rules, minChangePercent: min, fresh: allowFresh && rules.fresh }, maxPrice: price };
}
