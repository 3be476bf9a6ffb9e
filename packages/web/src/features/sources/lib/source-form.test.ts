import { describe, expect, it } from 'vitest';
import { checkSourceForm, EMPTY_FORM, runStatusLabel } from './source-form';

describe('the source form', () => {
  it.each([
    [{}, 'Название: введите его'],
    [{ name: 'Фид' }, 'Адрес: введите адрес'],
    [{ name: 'Фид', url: 'ftp://host/feed.xml' }, 'Адрес: должен начинаться с http:// или https://'],
    [
      { name: 'Фид', url: 'https://host/feed.xml', headers: 'X-Key: 1\nбез двоеточия' },
      'Заголовки: строка 2',
    ],
  ])('%j → %s', (over, problem) => {
    const result = checkSourceForm({ ...EMPTY_FORM, ...over });
    expect('problem' in result && result.problem).toContain(problem);
  });

  it('makes the request body: trimmed, headers as an object, empty names null', () => {
    const result = checkSourceForm({
      ...EMPTY_FORM,
      name: ' ПИК ',
      kind: 'pik-api',
      url: ' https://api.pik.ru/v1/flat?block_id=118 ',
      headers: 'Authorization: Bearer a:b\n\n',
      developer: '',
      project: 'Саларьево парк',
    });
    expect(result).toEqual({
      body: {
        name: 'ПИК',
        kind: 'pik-api',
        url: 'https://api.pik.ru/v1/flat?block_id=118',
        headers: { Authorization: 'Bearer a:b' },
        developer: null,
        project: 'Саларьево парк',
      },
    });
    expect(runStatusLabel('failed')).toBe('ошибка');
  });
});
