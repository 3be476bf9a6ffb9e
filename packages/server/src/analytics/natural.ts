const collator = new Intl.Collator('ru', { numeric: true, sensitivity: 'base' });

/** Natural order of names: "Корпус 2" before "Корпус 10". Ties broken by code points so the order is total. */
export function compareNatural(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
