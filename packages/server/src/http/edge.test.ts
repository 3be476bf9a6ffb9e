import { describe, expect, it } from 'vitest';
import { jsonProblem, MAX_BODY_DEPTH, urlProblem } from './edge.js';

describe('edge checks', () => {
  it.each([
    [{ a: 'x', b: [1, 'y', { c: 'z' }] }, null],
    [{ flats: [{ id: 'a' }, { id: 'b\u0000' }] }, 'flats[1].id: содержит недопустимые управляющие символы'],
    [{ 'k\u0001': 1 }, 'тело запроса: имя поля содержит недопустимые управляющие символы'],
    ['\u0007', 'тело запроса: содержит недопустимые управляющие символы'],
    ['строка\tс табуляцией\nи переводом', null],
  ])('%j → %s', (value, problem) => expect(jsonProblem(value)).toBe(problem));

  it('nesting is counted without recursion, at any depth', () => {
    expect(jsonProblem(JSON.parse(`${'['.repeat(MAX_BODY_DEPTH)}1${']'.repeat(MAX_BODY_DEPTH)}`))).toBeNull();
    expect(jsonProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toMatch(
      /вложенность глубже/,
    );
    expect(jsonProblem({ a: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) })).toMatch(
      /^a\[0\]\[0\]…: вложенность/,
    );
  });

  it.each([
    ['/api/search?q=abc', null],
    ['/api/search?q=%00', 'q: содержит недопустимые управляющие символы'],
    ['/api/summary/%01', 'адрес запроса: содержит недопустимые управляющие символы'],
    ['/api/search?q=%E0%A4%A', 'параметры запроса: неверная кодировка (%) в «q=%E0%A4%A»'],
    ['/api/search?q=a+b', null],
  ])('%s → %s', (url, problem) => expect(urlProblem(url)).toBe(problem));
});
