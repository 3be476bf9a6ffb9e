import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inPlace, keptScopes, nameKey, scopeOf } from '../src/read/market-scopes.js';

/** A project's place: a city (of a region, unless told none). */
const place = (city: string | null, region: string | null = 'Московская область') => ({
  region,
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
    expect(inPlace(place(null), { city: 'москва' })).toBe(false);
  });
});

describe('the market’s kept scopes', () => {
  it('scopes: the whole market always, a developer, place or class from the size kept, names compared case aside', () => {
    const row = (id: number, developer: number, city: string | null, handClass: string | null = null) => ({
      id,
      name: `П${id}`,
      data_version: 1,
      developer_id: developer,
      developer_name: `З${developer}`,
      hand_class: handClass,
      registry_class: null,
      last_ppm: null,
      place: place(city, null),
    });
    const scopes = keptScopes(
      [
        row(1, 1, 'Москва', 'comfort'),
        row(2, 1, 'МОСКВА', 'comfort'),
        row(3, 2, 'москва'),
        row(4, 2, null, 'comfort'),
        row(5, 3, null, 'premium'),
      ],
      3,
    );
    expect([...scopes.keys()].sort()).toEqual(['city:москва', 'class:comfort', 'market']);
    expect(scopes.get('city:москва')!.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(scopes.get('class:comfort')!.map((p) => p.id)).toEqual([1, 2, 4]);
    // a request names the scope it is kept as: a class alone, not with a place
    expect(scopeOf({ priceClass: 'comfort' })).toBe('class:comfort');
    expect(scopeOf({ priceClass: 'comfort', city: 'Москва' })).toBeNull();
  });
});
