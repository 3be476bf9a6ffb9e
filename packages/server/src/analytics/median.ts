/** The median of numbers already sorted ascending (the two middle ones averaged when the count is even); null when none. */
export function medianOfSorted(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of numbers in any order; null when none. */
export function median(values: readonly number[]): number | null {
  return medianOfSorted([...values].sort((a, b) => a - b));
}
