import { describe, expect, it } from 'vitest';
import { type Digest, digestBlocks, escapeHtml, splitMessage, TELEGRAM_LIMIT } from './format.js';

const NB = '\u00a0';

describe('escapeHtml', () => {
  it('escapes the three characters Telegram HTML reserves and nothing else', () => {
    expect(escapeHtml('ЖК <Солнце> & "Ко"')).toBe('ЖК &lt;Солнце&gt; &amp; "Ко"');
  });
});

describe('splitMessage', () => {
  it('keeps blocks whole and every part within the limit', () => {
    const blocks = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(1000));
    const parts = splitMessage(blocks);
    expect(parts.map((p) => p.split('\n\n').length)).toEqual([4, 4, 2]);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(TELEGRAM_LIMIT);
    expect(parts.join('\n\n')).toBe(blocks.join('\n\n'));
    // no block was cut: each part is a run of whole blocks
    for (const p of parts) for (const b of p.split('\n\n')) expect(b.length).toBe(1000);
  });

  it('splits a block longer than the limit between its lines', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `строка ${i} `.padEnd(60, '·'));
    const parts = splitMessage(['заголовок', lines.join('\n')], 1000);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1000);
    expect(
      parts
        .join('\n')
        .split('\n')
        .filter((l) => l.startsWith('строка')),
    ).toEqual(lines);
  });

  it('cuts a line longer than the limit, never inside an HTML entity', () => {
    const line = `${'а'.repeat(95)}&amp;${'б'.repeat(200)}`;
    const parts = splitMessage([line], 98);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(98);
      expect(p).not.toMatch(/&[a-z]*$/);
    }
    expect(parts.join('')).toBe(line);
  });
});

describe('digestBlocks', () => {
  const digest: Digest = {
    summaryId: 7,
    date: '2026-11-02',
    projects: [
      {
        projectId: 1,
        projectName: 'Северный <квартал>',
        developerName: 'Пионер',
        isNewProject: false,
        flatsCount: 4,
        newFlats: 1,
        removedFlats: 0,
        priceUp: 1,
        priceDown: 1,
        avgChangePercent: 0,
      },
      {
        projectId: 2,
        projectName: 'Тихий двор',
        developerName: 'ЛСР',
        isNewProject: false,
        flatsCount: 1,
        newFlats: 0,
        removedFlats: 0,
        priceUp: 0,
        priceDown: 0,
        avgChangePercent: null,
      },
    ],
    cuts: [
      {
        flatId: 11,
        projectName: 'Северный <квартал>',
        developerName: 'Пионер',
        rooms: 1,
        area: 40,
        oldPrice: 8_000_000,
        newPrice: 7_600_000,
        changePercent: -5,
      },
    ],
  };

  it('says per project what changed, counts the quiet ones, and lists the biggest cuts, escaped', () => {
    expect(digestBlocks(digest)).toEqual([
      `<b>Ежедневная сводка · 2 ноября 2026 г.</b>\n2 проекта · новых квартир: 1 · снято: 0 · подорожали: 1 · подешевели: 1`,
      `<b>Пионер · Северный &lt;квартал&gt;</b>\nновые 1 · сняты 0 · дороже 1 · дешевле 1 · в среднем 0,00${NB}%`,
      'Без изменений: 1 проект.',
      `<b>Крупнейшие снижения</b>\n• Пионер · Северный &lt;квартал&gt;, № 11, 1-комнатная, 40 м²: 8${NB}000${NB}000 → 7${NB}600${NB}000 ₽ (−5,00${NB}%)`,
    ]);
  });
});
