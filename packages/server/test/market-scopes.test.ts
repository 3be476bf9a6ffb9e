import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inPlace, nameKey } from '../src/read/market-scopes.js';

const place = (city: string) => ({
  region: 'Московская область',
  city,
  district: null,
  address: null,
  latitude: null,
  longitude: null,
  stations: [],
});

/** A name's spellings the filters take as the same: each letter in either case. */
const spelled = (name: string, upper: boolean[]) =>
  [...name].map((c, i) => (upper[i % upper.length] ? c.toLocaleUpperCase('ru') : c)).join('');

describe('a place filter compares names case aside', () => {
  const letters = fc.constantFrom(...'абвгдеёжзийклмнопрстуфхцчшщъыьэюя- '.split(''));
  const names = fc.array(letters, { minLength: 1, maxLength: 12 }).map((a) => a.join(''));

  it('matches every spelling of the name, and the held lower case is ICU’s for each', () => {
    fc.assert(
      fc.property(names, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), (name, upper) => {
        const asked = spelled(name, upper);
        // twice: the second from the held names
        for (let i = 0; i < 2; i++) {
          expect(inPlace(place(name), { city: asked })).toBe(true);
          expect(inPlace(place(asked), { city: name })).toBe(true);
          expect(nameKey(asked)).toBe(asked.toLocaleLowerCase('ru'));
        }
      }),
    );
  });

  it('tells different names apart, and a project with no city from any', () => {
    fc.assert(
      fc.property(names, names, (a, b) => {
        fc.pre(a.toLocaleLowerCase('ru') !== b.toLocaleLowerCase('ru'));
        expect(inPlace(place(a), { city: b })).toBe(false);
        expect(inPlace(place(a.toLocaleUpperCase('ru')), { city: b })).toBe(false);
      }),
    );
    expect(inPlace({ ...place(''), city: null }, { city: 'москва' })).toBe(false);
  });
});
