export interface CollectReport {
  date: string;
  sources: number;
  done: number;
  unchanged: number;
  failed: number;
  flats: number;
  /** sources whose last two runs failed */
  failing: string[];
  /** sources whose list of the day is partial (§10.4) */
  partial: string[];
}

/** The report as the admin chat reads it; null when there is nothing to report. */
export function reportText(r: CollectReport): string | null {
  const lines: string[] = [];
  if (r.failing.length) lines.push(`Не собираются второй раз подряд: ${r.failing.join(', ')}.`);
  if (r.partial.length) lines.push(`Неполные списки: ${r.partial.join(', ')}.`);
  if (!lines.length) return null;
  return [
    `Сбор прайс-листов за ${r.date}: источников ${r.sources}, собрано ${r.done + r.unchanged}.`,
    ...lines,
  ].join('\n');
}
