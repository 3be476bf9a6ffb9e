/** Telegram WebApp launch parameters: the pure part of lib/telegram.ts (no DOM). */

export interface TelegramTheme {
  bg_color?: string;
  text_color?: string;
  hint_color?: string;
  link_color?: string;
  button_color?: string;
  button_text_color?: string;
  secondary_bg_color?: string;
}

export interface TelegramLaunch {
  initData: string;
  theme: TelegramTheme;
  colorScheme: 'light' | 'dark' | null;
}

/** The launch parameters in a URL fragment, or null when it carries none. */
export function parseLaunchFragment(hash: string): TelegramLaunch | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const initData = params.get('tgWebAppData');
  if (!initData) return null;
  let theme: TelegramTheme = {};
  try {
    const parsed = JSON.parse(params.get('tgWebAppThemeParams') ?? '{}');
    if (parsed && typeof parsed === 'object') theme = parsed as TelegramTheme;
  } catch {}
  return { initData, theme, colorScheme: null };
}

/** Whether a #rrggbb colour is dark (relative luminance below the middle): Telegram's own rule. */
export function isDarkColour(hex: string | undefined): boolean | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex ?? '');
  if (!m) return null;
  const n = Number.parseInt(m[1]!, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
}
