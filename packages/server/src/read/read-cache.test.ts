import { expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

const MB = 1 << 20;
const bytes = () => MB;

it('a named share of the read cache holds its values whatever the rest keeps, out of the same budget', () => {
  const cache = new ReadCache(10 * MB);
  const part = cache.part('rank', 4 * MB);
  // the same name: the same share, not another carved
  expect(cache.part('rank', 4 * MB)).toBe(part);
  for (let i = 0; i < 3; i++) part.set(`rank:${i}`, 1, i, bytes);
  // the rest is pushed past its own budget: the share's values stay
  for (let i = 0; i < 20; i++) cache.set(`stats:${i}`, 1, i, bytes);
  expect([0, 1, 2].map((i) => part.get(`rank:${i}`, 1))).toEqual([0, 1, 2]);
  // the budget is the whole one: the rest holds 10 − 4 MB, the share its 4
  expect(cache.bytes).toBe(6 * MB);
  for (let i = 3; i < 8; i++) part.set(`rank:${i}`, 1, i, bytes);
  expect(part.bytes).toBe(4 * MB);
  expect(part.get('rank:0', 1)).toBeUndefined();
  expect(part.get('rank:7', 1)).toBe(7);
  // at most half of a small budget; a new share once values are kept would drop them: refused
  const small = new ReadCache(2 * MB).part('rank', 4 * MB);
  small.set('rank:0', 1, 0, bytes);
  small.set('rank:1', 1, 1, bytes);
  expect(small.bytes).toBe(MB);
  expect(() => cache.part('other', MB)).toThrow(/asked after values were kept/);
});
