import { describe, expect, it } from 'vitest';
import { searchCatalog } from './search-catalog';

const developers = [
  { id: 5, name: 'Пионер' },
  { id: 2, name: 'Самолет' },
];
const projects = [
  { id: 11, name: 'Остров мечты', minFlatCreatedAt: '2023-01-01', developerId: 5 },
  { id: 12, name: 'Самолетный двор', minFlatCreatedAt: null, developerId: 2 },
];

describe('navbar search over loaded developers and projects', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['пион', ['Застройщик Пионер /']],
    [
      'САМОЛЕТ',
      ['Застройщик Самолет /?developer=2', 'Проект Самолетный двор · Самолет /?developer=2&project=12'],
    ],
    ['остров', ['Проект Остров мечты · Пионер /?project=11']],
    ['нет такого', []],
  ])('%j → %j', (q, hits) => {
    expect(searchCatalog(q, developers, projects).map((h) => `${h.kind} ${h.label} ${h.to}`)).toEqual(hits);
  });
});
