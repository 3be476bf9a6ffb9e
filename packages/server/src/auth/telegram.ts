import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
}

export const INIT_DATA_MAX_AGE_S = 24 * 60 * 60;

/**
 * Checks Telegram WebApp initData (Telegram's rule): the data-check string is every field but `hash`,
 * sorted, as `key=value` lines; its HMAC-SHA256 under HMAC-SHA256("WebAppData", bot token) must equal
 * `hash`, and `auth_date` must be at most 24 h old. Returns the user, or the reason it is refused.
 */
export function verifyInitData(
  initData: string,
  botToken: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { user: TelegramUser } | { error: string } {
  const params = new URLSearchParams(initData);
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return { error: 'нет подписи' };
  params.delete('hash');
  const check = [...params.entries()]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(check).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { error: 'подпись не сходится' };
  const authDate = Number(params.get('auth_date'));
  if (
    !Number.isInteger(authDate) ||
    nowSeconds - authDate > INIT_DATA_MAX_AGE_S ||
    authDate - nowSeconds > 300
  )
    return { error: 'данные устарели' };
  try {
    const user = JSON.parse(params.get('user') ?? '') as TelegramUser;
    if (!Number.isInteger(user.id)) return { error: 'нет пользователя' };
    return { user };
  } catch {
    return { error: 'нет пользователя' };
  }
}

/** The `token` header: base64 of initData. */
export function decodeTokenHeader(value: string): string | null {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(value)) return null;
  return Buffer.from(value, 'base64').toString('utf8');
}
