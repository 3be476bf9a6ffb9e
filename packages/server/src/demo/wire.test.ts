import { describe, expect, it } from 'vitest';
import { contentHash, validateSnapshot } from '../ingest/snapshot.js';
import { planDemo } from './generate.js';
import { demoLists } from './lists.js';
import { WireDecoder, WireEncoder } from './wire.js';

describe('demo lists handed between threads (demo/wire.ts)', () => {
  it('come out as validated, with their content hashes, chunk after chunk', () => {
    const plan = planDemo({ until: '2025-08-01', from: '2025-05-01', developers: 2, scale: 0.1, seed: 3 });
    const encoder = new WireEncoder();
    const decoder = new WireDecoder();
    let lists = 0;
    let offers = 0;
    for (let p = 0; p < plan.projects.length; p++) {
      const sent = [...demoLists(plan, p)].filter((l) => l !== null);
      // chunks of 7 lists: later chunks name texts an earlier one brought
      for (let i = 0; i < sent.length; i += 7) {
        const part = sent.slice(i, i + 7).map((l) => ({ ...l, contentHash: contentHash(l) }));
        for (const l of part) encoder.add(l);
        const chunk = encoder.take(p, part.length, i + 7 >= sent.length);
        expect(chunk.columns).toHaveLength(13 * part.reduce((n, l) => n + l.flats.length, 0));
        const got = decoder.decode(structuredClone(chunk));
        expect(got).toEqual(part);
        for (const [k, l] of got.entries()) expect(contentHash(l)).toBe(part[k].contentHash);
        lists += got.length;
        offers += got.flatMap((l) => l.flats).filter((f) => f.rec.offer !== null).length;
      }
    }
    expect(lists).toBeGreaterThan(100);
    // every list in one chunk: more flats than the encoder's first buffer holds (it grows)
    const all = plan.projects
      .flatMap((_, p) => [...demoLists(plan, p)])
      .filter((l) => l !== null)
      .map((l) => ({ ...l, contentHash: contentHash(l) }));
    const flats = all.reduce((n, l) => n + l.flats.length, 0);
    expect(flats * 13).toBeGreaterThan(1 << 16);
    const one = new WireEncoder();
    for (const l of all) one.add(l);
    const chunk = one.take(0, all.length, true);
    expect(chunk.columns).toHaveLength(13 * flats);
    expect(new WireDecoder().decode(structuredClone(chunk))).toEqual(all);
    // taken, the encoder starts the next chunk empty
    one.add(all[0]);
    expect(one.take(0, 1, true).columns).toHaveLength(13 * all[0].flats.length);
    // nulls, offers and numbers all went across
    expect(offers).toBeGreaterThan(0);
  });

  it('keep what a list leaves out as null', () => {
    const list = validateSnapshot(
      {
        date: '2026-11-20',
        developer: 'Застройщик',
        project: 'Проект',
        flats: [
          { id: 'a', building: '1', rooms: 1, area: 40.25, price: 9_000_000 },
          {
            id: 'b',
            building: 'Корпус 2',
            section: '3',
            floor: -1,
            number: '7',
            rooms: 0,
            area: 22,
            price: 7_000_000,
            basePrice: 7_100_000,
            status: 'RESERVED',
            settlementDate: '4 кв. 2027',
            finish: 'white box',
          },
        ],
      },
      { file: 'test' },
    );
    const encoder = new WireEncoder();
    encoder.add({ ...list, contentHash: contentHash(list) });
    const [got] = new WireDecoder().decode(encoder.take(0, 1, true));
    expect(got).toEqual({ ...list, contentHash: contentHash(list) });
    expect(got.flats[0].rec).toMatchObject({
      section: null,
      floor: null,
      number: null,
      basePrice: null,
      status: null,
    });
  });
});
