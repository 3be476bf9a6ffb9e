import { darkModeStore } from './dark-mode';
import {
  isDarkColour,
  parseLaunchFragment,
  type TelegramLaunch,
  type TelegramTheme,
} from './telegram-launch';

/**
 * The app opened from Telegram (the digest's WebApp button). Telegram starts a WebApp with its launch
 * parameters in the URL fragment (`#tgWebAppData=…&tgWebAppThemeParams=…`); telegram-web-app.js, when a
 * page loads it, exposes them as `window.Telegram.WebApp`. Our CSP allows scripts of our own origin only,
 * so we read the fragment ourselves, keep it for the session (the SPA navigates away from the first URL),
 * and use `window.Telegram.WebApp` when it is there after all.
 */

const STORAGE_KEY = 'cena-metra:telegram';

interface WebAppGlobal {
  initData?: string;
  colorScheme?: 'light' | 'dark';
  themeParams?: TelegramTheme;
  ready?: () => void;
  expand?: () => void;
}

let cached: TelegramLaunch | null | undefined;

/** The Telegram launch of this session, if the app runs inside Telegram. */
export function telegramLaunch(): TelegramLaunch | null {
  if (cached !== undefined) return cached;
  const webApp = (window as { Telegram?: { WebApp?: WebAppGlobal } }).Telegram?.WebApp;
  if (webApp?.initData) {
    cached = {
      initData: webApp.initData,
      theme: webApp.themeParams ?? {},
      colorScheme: webApp.colorScheme ?? null,
    };
    return cached;
  }
  const fromUrl = parseLaunchFragment(window.location.hash);
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(fromUrl));
    cached = fromUrl;
    return cached;
  }
  try {
    cached = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as TelegramLaunch | null;
  } catch {
    cached = null;
  }
  return cached;
}

/** initData base64-encoded for the `token` header, when inside Telegram. */
export function telegramToken(): string | null {
  const initData = telegramLaunch()?.initData;
  if (!initData) return null;
  return btoa(String.fromCharCode(...new TextEncoder().encode(initData)));
}

/**
 * The page in Telegram's colours: dark or light as the chat is, and the palette the app draws with
 * (Tailwind's colour variables) mapped onto the theme's background, text, links and buttons.
 */
export function applyTelegramTheme(root: HTMLElement = document.documentElement): boolean {
  const launch = telegramLaunch();
  if (!launch) return false;
  const t = launch.theme;
  const dark = launch.colorScheme ? launch.colorScheme === 'dark' : (isDarkColour(t.bg_color) ?? false);
  root.classList.toggle('dark', dark);
  darkModeStore.set(dark);
  root.classList.add('tg-theme');
  const set = (name: string, value: string | undefined) => {
    if (value) root.style.setProperty(name, value);
  };
  if (dark) {
    set('--color-slate-800', t.bg_color);
    set('--color-slate-900', t.secondary_bg_color ?? t.bg_color);
    set('--color-slate-100', t.text_color);
    set('--color-slate-400', t.hint_color);
    set('--color-blue-400', t.link_color);
  } else {
    set('--color-gray-50', t.bg_color);
    set('--color-white', t.secondary_bg_color ?? t.bg_color);
    set('--color-gray-800', t.text_color);
    set('--color-gray-500', t.hint_color);
  }
  set('--color-blue-600', t.button_color ?? t.link_color);
  const webApp = (window as { Telegram?: { WebApp?: WebAppGlobal } }).Telegram?.WebApp;
  webApp?.ready?.();
  webApp?.expand?.();
  return true;
}
