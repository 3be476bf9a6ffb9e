export { formatChange } from '@cena-metra/contract';

/** Colour of a change: cheaper is good news for a buyer (green), dearer is red. */
export function changeTone(percent: number | null): 'down' | 'up' | 'none' {
  if (percent === null || percent === 0) return 'none';
  return percent < 0 ? 'down' : 'up';
}
