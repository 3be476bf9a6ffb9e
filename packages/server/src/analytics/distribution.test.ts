import { describe, expect, it } from 'vitest';
import { niceWidth, ppmDistribution, ppmPercentile } from './distribution.js';

const flat = (rooms: number, ppm: number) => ({ rooms, price: ppm * 50, area: 50 });

describe('the ppm distribution', () => {
  it('takes round bin widths', () => {
    expect(niceWidth(200_000, 400_000)).toBe(10_000);
    expect(niceWidth(200_000, 260_000)).toBe(5_000);
    expect(niceWidth(300_000, 301_000)).toBe(50);
    expect(niceWidth(5, 5)).toBe(1);
  });

  it('bins every group with one width, from its first flat to its last; the last bin is closed', () => {
    const flats = [flat(1, 200_000), flat(1, 209_999), flat(1, 210_000), flat(2, 300_000), flat(0, 250_000)];
    const d = ppmDistribution(flats);
    const all = d.find((g) => g.group === 'all')!;
    expect(all.count).toBe(5);
    expect(all.bins[0]).toEqual({ from: 200_000, to: 205_000, count: 1 });
    expect(all.bins.reduce((s, b) => s + b.count, 0)).toBe(5);
    expect(all.bins.at(-1)).toEqual({ from: 300_000, to: 305_000, count: 1 });
    const one = d.find((g) => g.group === 'one')!;
    expect(one).toMatchObject({ count: 3, median: 209_999 });
    expect(one.bins.map((b) => [b.from, b.count])).toEqual([
      [200_000, 1],
      [205_000, 1],
      [210_000, 1],
    ]);
    expect(d.find((g) => g.group === 'threeAndMore')).toEqual({
      group: 'threeAndMore',
      count: 0,
      median: null,
      bins: [],
    });
    expect(ppmDistribution([]).every((g) => g.count === 0 && g.bins.length === 0)).toBe(true);
  });

  it('gives a flat the share of its group at or below its ppm', () => {
    expect(ppmPercentile(300, [100, 200, 300, 400])).toBe(75);
    expect(ppmPercentile(100, [100])).toBe(100);
    expect(ppmPercentile(100, [])).toBeNull();
    expect(ppmPercentile(150, [100, 200, 300])).toBe(33.3);
  });
});
