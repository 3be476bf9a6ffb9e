import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('csvCell: Excel must not run a cell as a formula (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['@SUM(1)', "'@SUM(1)"],
    ['-1+1', "'-1+1"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['-5,00', '-5,00'],
    ['-1.5', '-1.5'],
    ['-12', '-12'],
    [-3.25, '-3.25'],
    ['Корпус 1', 'Корпус 1'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['', ''],
    [null, ''],
  ])('%j → %s', (value, cell) => {
    expect(csvCell(value as string)).toBe(cell);
  });

  it('joins a line with ;', () => {
    expect(csvLine(['=1', 2, null, 'x'])).toBe("'=1;2;;x");
  });
});
