import { describe, expect, it } from 'vitest';
import { auditChange, deviceName } from './team-text';

describe('deviceName', () => {
  it('names the browser and the system of common User-Agents, and keeps an unknown one short', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome, Windows');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari, iOS');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox, Linux',
    );
    expect(
      deviceName(
        'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 YaBrowser/24.1 Safari/537.36',
      ),
    ).toBe('Яндекс Браузер, Windows');
    expect(deviceName('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceName('x'.repeat(100))).toBe(`${'x'.repeat(60)}…`);
  });
});

describe('auditChange', () => {
  it('says what changed, field by field, in Russian', () => {
    expect(auditChange({ role: 'analyst', disabled: false }, { role: 'viewer', disabled: false })).toEqual([
      'роль: Аналитик → Наблюдатель',
    ]);
    expect(auditChange({ role: 'admin', disabled: false }, { role: 'admin', disabled: true })).toEqual([
      'отключён: нет → да',
    ]);
  });
  it('lists what a made thing holds, and what a removed one held', () => {
    expect(auditChange(null, { status: 'failed', flats: 0 })).toEqual(['итог: failed', 'квартир: 0']);
    expect(auditChange({ name: 'Фид', enabled: true }, null)).toEqual(['название: Фид', 'включён: да']);
    expect(auditChange(null, null)).toEqual([]);
  });
});
