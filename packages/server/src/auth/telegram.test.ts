import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeTokenHeader, verifyInitData } from './telegram.js';

const BOT = '123456:TEST-token';
const NOW = 1_795_000_000;

/** initData signed the way Telegram signs it, independently of the code under test. */
function signed(fields: Record<string, string>, botToken = BOT): string {
  const check = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', secret).update(check).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

const user = JSON.stringify({ id: 42, first_name: 'Анна', username: 'anna' });

describe('Telegram WebApp initData', () => {
  it('accepts data signed with the bot token and at most 24 h old', () => {
    const data = signed({ auth_date: String(NOW - 3600), query_id: 'AAE', user });
    expect(verifyInitData(data, BOT, NOW)).toEqual({
      user: { id: 42, first_name: 'Анна', username: 'anna' },
    });
    expect(verifyInitData(signed({ auth_date: String(NOW - 86_400), user }), BOT, NOW)).toHaveProperty(
      'user',
    );
  });

  it.each([
    ['another bot token', signed({ auth_date: String(NOW), user }, '999:OTHER'), 'подпись не сходится'],
    [
      'a field changed after signing',
      signed({ auth_date: String(NOW), user }).replace('anna', 'eve'),
      'подпись не сходится',
    ],
    ['older than 24 h', signed({ auth_date: String(NOW - 86_401), user }), 'данные устарели'],
    ['no hash', new URLSearchParams({ auth_date: String(NOW), user }).toString(), 'нет подписи'],
    ['no user', signed({ auth_date: String(NOW) }), 'нет пользователя'],
    ['garbage', 'hash=zz', 'нет подписи'],
  ])('refuses %s', (_name, data, error) => {
    expect(verifyInitData(data, BOT, NOW)).toEqual({ error });
  });

  it('reads the base64 header', () => {
    const data = signed({ auth_date: String(NOW), user });
    expect(decodeTokenHeader(Buffer.from(data).toString('base64'))).toBe(data);
    expect(decodeTokenHeader('not base64!')).toBeNull();
  });
});
