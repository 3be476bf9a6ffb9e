/** Colour of a change: cheaper is good news for a buyer (green), dearer is red. */
export function changeTone(percent: number | null): 'down' | 'up' | 'none' {
  if (percent === null || percent === 0) return 'none';
  return percent < 0 ? 'down' : 'up';
}

/** «−5,00 %», «+3,25 %» with a true minus sign. */
export function formatChange(percent: number | null): string {
  if (percent === null) return '—';
  const text = Math.abs(percent).toLocaleString('ru-RU', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${percent < 0 ? '−' : percent > 0 ? '+' : ''}${text}\u00a0%`;
}
