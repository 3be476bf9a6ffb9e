import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password-form';

describe('password change form checks', () => {
  it.each([
    ['', 'long-enough', 'long-enough', 'Текущий пароль: введите его'],
    ['old', 'short', 'short', 'Новый пароль: не короче 8 символов'],
    ['old', 'long-enough', 'long-enougH', 'Повтор пароля: не совпадает с новым паролем'],
    ['long-enough', 'long-enough', 'long-enough', 'Новый пароль: совпадает с текущим'],
    ['old', 'x'.repeat(201), 'x'.repeat(201), 'Новый пароль: не длиннее 200 символов'],
    ['old', 'long-enough', 'long-enough', null],
  ])('%j, %j, %j → %j', (current, next, repeat, problem) => {
    expect(passwordProblems(current, next, repeat)).toBe(problem);
  });
});
