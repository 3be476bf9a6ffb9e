import { describe, expect, it } from 'vitest';
import { searchHits } from './search-catalog';

describe('navbar search results', () => {
  it('groups developers, projects and flats, each leading where a user expects', () => {
    const hits = searchHits({
      developers: [
        { id: 5, name: 'Пионер' },
        { id: 2, name: 'Самолет' },
      ],
      projects: [{ id: 11, name: 'Остров мечты', developerId: 5, developerName: 'Пионер' }],
      flats: [
        {
          flatId: 77,
          externalId: 'A-1',
          projectId: 11,
          projectName: 'Остров мечты',
          developerName: 'Пионер',
        },
      ],
    });
    expect(hits.map((h) => `${h.kind} | ${h.label} | ${h.to}`)).toEqual([
      'Застройщики | Пионер | /',
      'Застройщики | Самолет | /?developer=2',
      'Проекты | Остров мечты · Пионер | /?project=11',
      'Квартиры | № 77 (A-1) · Остров мечты | /flat?flatId=77',
    ]);
  });

  it('answers nothing for an empty result', () => {
    expect(searchHits({ developers: [], projects: [], flats: [] })).toEqual([]);
  });
});
