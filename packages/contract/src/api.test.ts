import { describe, expect, it } from 'vitest';
import { idSchema, intInRange, loginRequestSchema } from './api.js';
import { dataDateProblem, maxDataDate } from './dates.js';
import { searchQuerySchema } from './market.js';

describe('strict integers: JSON numbers or digit strings, nothing else', () => {
  const id = idSchema('projectId');
  it.each([1, '1', 2147483647, '42'])('accepts %j', (v) => {
    expect(id.parse(v)).toBe(Number(v));
  });
  it.each([true, false, '0x10', [1], '1e1', ' 7', '', null, 1.5, 0, -1, '2147483648', {}])(
    'refuses %j naming the field in Russian',
    (v) => {
      const result = id.safeParse(v);
      expect(result.success).toBe(false);
      expect(result.error!.issues[0].message).toMatch(/^projectId: /);
    },
  );
  it('ranges', () => {
    const rooms = intInRange('rooms', 0, 50);
    expect(rooms.parse('0')).toBe(0);
    expect(rooms.safeParse(51).success).toBe(false);
    expect(rooms.safeParse('').success).toBe(false);
    expect(rooms.safeParse(false).success).toBe(false);
  });
});

describe('texts refuse control characters and overlong values', () => {
  it.each([
    [{ username: 'a\u0000b', password: 'x' }, 'username'],
    [{ username: 'a', password: 'x\u0007' }, 'password'],
    [{ username: 'a'.repeat(101), password: 'x' }, 'username'],
  ])('%j → %s', (body, field) => {
    const result = loginRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toContain(field);
  });
  it('a search may hold tabs and spaces, not NUL', () => {
    expect(searchQuerySchema.parse({ q: ' корпус\t1 ' }).q).toBe('корпус\t1');
    expect(searchQuerySchema.safeParse({ q: '\u0000' }).success).toBe(false);
  });
});

describe('data dates: 2000-01-01 to tomorrow', () => {
  const now = new Date(2026, 10, 23, 12);
  it.each([
    ['2026-11-24', null],
    ['2000-01-01', null],
    ['2026-11-25', 'должно быть датой от 2000-01-01 до 2026-11-24'],
    ['1999-12-31', 'должно быть датой от 2000-01-01 до 2026-11-24'],
    ['9999-12-31', 'должно быть датой от 2000-01-01 до 2026-11-24'],
    ['0000-01-01', 'должно быть датой от 2000-01-01 до 2026-11-24'],
    ['2026-02-30', 'должно быть датой в формате ГГГГ-ММ-ДД'],
  ])('%s', (date, problem) => {
    expect(dataDateProblem(date, now)).toBe(problem);
  });
  it('tomorrow across a month end', () => {
    expect(maxDataDate(new Date(2026, 11, 31, 23, 59))).toBe('2027-01-01');
  });
});
