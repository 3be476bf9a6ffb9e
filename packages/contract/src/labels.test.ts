import { describe, expect, it } from 'vitest';
import {
  afterGapLabel,
  countOf,
  formatDecimal2,
  formatPercent,
  formatRoubles,
  PROJECTS,
  plural,
  SNAPSHOTS,
} from './format.js';
import { buildingKey, buildingLabel, facingLabel, quarterLabel, roomsLabel } from './labels.js';

describe('labels and formats (spec §3, §9)', () => {
  it.each([
    ['BLACK', 'Без отделки'],
    ['WHITE', 'Предчистовая'],
    ['FINE_FINISHING', 'С отделкой'],
    ['FURNITURE', 'С мебелировкой'],
    ['X', 'Неизвестно'],
  ])('facing %s → %s', (code, label) => expect(facingLabel(code)).toBe(label));
  it.each([
    ['0', 'Студия'],
    [2, '2-комнатная'],
    ['4', '4-комнатная'],
  ])('rooms %s → %s', (k, l) => expect(roomsLabel(k)).toBe(l));
  it.each([
    ['7', 'Корпус 7'],
    ['Корпус 1.1', 'Корпус 1.1'],
    ['корпус 3', 'корпус 3'],
  ])('building %s → %s', (b, l) => expect(buildingLabel(b)).toBe(l));
  it.each([
    ['2026-12-31', '4 кв. 2026 г.'],
    ['2027-03-31', '1 кв. 2027 г.'],
    ['2025-05-15', '2 кв. 2025 г.'],
  ])('quarter %s → %s', (d, l) => expect(quarterLabel(d)).toBe(l));
  it('ru-RU numbers', () => {
    expect(formatRoubles(14250000.4)).toBe('14\u00a0250\u00a0000');
    expect(formatDecimal2(371093.75)).toBe('371\u00a0093,75');
    expect(formatPercent(3.25)).toBe('3,25\u00a0%');
  });
});

describe('Russian plurals', () => {
  it.each([
    [1, 'проект'],
    [2, 'проекта'],
    [4, 'проекта'],
    [5, 'проектов'],
    [11, 'проектов'],
    [12, 'проектов'],
    [21, 'проект'],
    [23, 'проекта'],
    [111, 'проектов'],
    [0, 'проектов'],
  ])('%i → %s', (n, form) => {
    expect(plural(n, PROJECTS)).toBe(form);
  });
  it('formats the count with spaces', () => {
    expect(countOf(14720, SNAPSHOTS)).toBe('14\u00a0720 снимков');
  });
});

describe('building key (DESIGN §10.3): one building whatever the source calls it', () => {
  it.each([
    ['31', '31'],
    ['Корпус 31', '31'],
    ['корпус 31', '31'],
    ['КОРПУС  31 ', '31'],
    ['корп. 31', '31'],
    ['Корп.31', '31'],
    ['к. 31', '31'],
    ['К.31', '31'],
    ['Корпус 1.1', '1.1'],
    ['  1   А ', '1 А'],
    ['Корпус', 'Корпус'],
    ['Кирпичный', 'Кирпичный'],
    ['к1', 'к1'],
  ])('%j → %j', (name, key) => expect(buildingKey(name)).toBe(key));

  it('the key is shown with its prefix', () => {
    expect(buildingLabel(buildingKey('корп. 31'))).toBe('Корпус 31');
  });
});

describe('a snapshot after a gap (DESIGN §10.1)', () => {
  it.each([
    [906, 'после перерыва в 906 дней'],
    [1, 'после перерыва в 1 день'],
    [32, 'после перерыва в 32 дня'],
    [151, 'после перерыва в 151 день'],
  ])('%i → %s', (days, label) => expect(afterGapLabel(days)).toBe(label));
});

describe('a delivered building (DESIGN §10.3)', () => {
  it('is shown «Сдан» and sorts after every date', () => {
    expect(quarterLabel('DONE')).toBe('Сдан');
    expect(['DONE', '2026-12-31', '2030-03-31'].sort()).toEqual(['2026-12-31', '2030-03-31', 'DONE']);
  });
});
