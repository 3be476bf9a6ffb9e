import { CONTROL_CHARACTERS_MESSAGE as BAD } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { jsonProblem, MAX_BODY_DEPTH, urlProblem } from './edge.js';

describe('edge checks', () => {
  it.each([
    [{ a: 'x', b: [1, 'y', { c: 'z' }] }, null],
    [{ flats: [{ id: 'a' }, { id: 'b\u0000' }] }, `flats[1].id: ${BAD}`],
    [{ 'k\u0001': 1 }, `тело запроса: имя поля ${BAD}`],
    ['\u0007', `тело запроса: ${BAD}`],
    ['строка\tс табуляцией\nи переводом', null],
    // DESIGN §12.1: a lone surrogate, a C1 control, a direction override or isolate, an invisible character
    [{ developer: 'ПИК\ud800' }, `developer: ${BAD}`],
    [{ developer: '\udc00ПИК' }, `developer: ${BAD}`],
    [{ project: 'Север\u0085' }, `project: ${BAD}`],
    [{ project: '\u202eкивеС' }, `project: ${BAD}`],
    [{ flats: [{ building: '1\u2067' }] }, `flats[0].building: ${BAD}`],
    [{ name: 'ПИК\u200b' }, `name: ${BAD}`],
    [{ emoji: '😀' }, null],
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
    ['/api/search?q=%00', `q: ${BAD}`],
    ['/api/summary/%01', `адрес запроса: ${BAD}`],
    ['/api/search?q=%E0%A4%A', 'параметры запроса: неверная кодировка (%) в «q=%E0%A4%A»'],
    ['/api/search?q=a+b', null],
    ['/api/search?q=%E2%80%AE', `q: ${BAD}`],
    ['/api/search?q=%C2%85', `q: ${BAD}`],
    ['/api/search?q=%ED%A0%80', 'параметры запроса: неверная кодировка (%) в «q=%ED%A0%80»'],
  ])('%s → %s', (url, problem) => expect(urlProblem(url)).toBe(problem));
});
