import { describe, expect, it } from 'vitest';
import { qualityLines } from './quality';

describe('the «Качество данных» panel', () => {
  it('says what is odd and marks it', () => {
    const lines = qualityLines({
      projectId: 1,
      projectName: 'Саларьево парк',
      maxCarryDays: 31,
      snapshots: { count: 4, first: '2020-01-10', last: '2022-12-05' },
      gaps: [{ after: '2020-01-12', before: '2022-07-07', days: 907 }],
      partialScans: [{ date: '2026-06-04', flats: 2, median: 10 }],
      snapshotList: [{ date: '2026-06-04', flats: 2, partial: true, complete: false }],
      areaChangedFlats: 74,
      ppmOutliers: 0,
      reservedPercent: 11.56,
      noSettlementPercent: 0,
    });
    expect(lines.map((l) => [l.label, l.value, l.warn])).toEqual([
      ['Снимков', '4: 10 января 2020 г. — 5 декабря 2022 г.', false],
      ['Перерывы без данных (больше 31 дн.)', '7 июля 2022 г., после перерыва в 907 дней', true],
      ['Неполные сканы', '4 июня 2026 г.: 2 из ~10', true],
      ['Квартир с изменённой площадью', '74', true],
      ['Выбросы цены м² (меньше половины или больше двух медиан)', '0', false],
      ['Забронировано', '11,56 %', false],
      ['Без даты сдачи', '0,00 %', false],
    ]);
  });

  it('an empty project says so', () => {
    const [snapshots, gaps] = qualityLines({
      projectId: 2,
      projectName: 'Пусто',
      maxCarryDays: 31,
      snapshots: { count: 0, first: null, last: null },
      gaps: [],
      partialScans: [],
      snapshotList: [],
      areaChangedFlats: 0,
      ppmOutliers: 0,
      reservedPercent: null,
      noSettlementPercent: null,
    });
    expect(snapshots.value).toBe('0');
    expect(gaps).toMatchObject({ value: 'нет', warn: false });
  });
});
