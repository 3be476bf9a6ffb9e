import { describe, expect, it } from 'vitest';
import { detectFormat, FORMATS, READERS } from './index.js';

describe('readers: one per format, asked in order by `auto`', () => {
  it('every format but auto has exactly one reader', () => {
    expect(READERS.map((r) => r.format).sort()).toEqual(FORMATS.filter((f) => f !== 'auto').sort());
  });

  it.each([
    ['a.ndjson', '{"date":"2026-01-01"}', 'ndjson'],
    ['a.jsonl', '{}', 'ndjson'],
    ['flats.csv', ',url,location,building\n0,/x/flats/1,"Корпус 1",Корпус 1', 'pik-csv'],
    ['flats.csv', '\uFEFFdate;developer;project;id\n', 'csv'],
    ['2020-01-10T15-33.json', '{\n "flats": [\n  {\n   "id": 1, "block": {}, "bulk": {}', 'pik'],
    ['2020-01-10T15-33', '{"flats":[{"block":{},"bulk":{}}]}', 'pik'],
    ['s.json', '{"date":"2026-01-01","developer":"x","flats":[{"block":1,"bulk":2}]}', 'json'],
    ['s.json', '[{"date":"2026-01-01"}]', 'json'],
  ])('%s → %s', (path, head, format) => {
    expect(detectFormat(path, head)).toBe(format);
  });
});
