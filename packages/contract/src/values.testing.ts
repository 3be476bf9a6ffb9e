// Test helpers: a value broken at any of its places (used by the fast doors' tests).

/** Every place in a value, as a path of keys. */
export function places(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== 'object' || v === null) return [path];
  const inner = Array.isArray(v)
    ? v.flatMap((x, i) => places(x, [...path, i]))
    : Object.entries(v).flatMap(([k, x]) => places(x, [...path, k]));
  return [path, ...inner];
}

export const BROKEN = ['x', 1.5, -3, null, true, [], {}, Number.NaN, undefined, 'extra-key'] as const;

export function broken(v: unknown, at: (string | number)[], how: (typeof BROKEN)[number]): unknown {
  const copy = structuredClone(v) as Record<string | number, unknown>;
  if (at.length === 0) return how === 'extra-key' ? { ...copy, extra: 1 } : how;
  let o = copy;
  for (const k of at.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (how === 'extra-key') {
    const target = o[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>).unexpected = 1;
    else delete o[last];
  } else o[last] = how;
  return copy;
}
