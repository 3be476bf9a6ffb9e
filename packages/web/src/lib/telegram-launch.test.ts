import { describe, expect, it } from 'vitest';
import { isDarkColour, parseLaunchFragment } from './telegram-launch';

describe('Telegram launch parameters', () => {
  it('reads initData and the theme from the URL fragment Telegram opens the WebApp with', () => {
    const initData = 'auth_date=1700000000&user=%7B%22id%22%3A501%7D&hash=abc';
    const theme = { bg_color: '#17212b', text_color: '#f5f5f5' };
    const hash = `#${new URLSearchParams({
      tgWebAppData: initData,
      tgWebAppVersion: '7.0',
      tgWebAppThemeParams: JSON.stringify(theme),
    })}`;
    expect(parseLaunchFragment(hash)).toEqual({ initData, theme, colorScheme: null });
  });

  it('is null without tgWebAppData, and keeps initData when the theme is not JSON', () => {
    expect(parseLaunchFragment('')).toBeNull();
    expect(parseLaunchFragment('#section-2')).toBeNull();
    expect(parseLaunchFragment('#tgWebAppData=a%3D1&tgWebAppThemeParams=%7Bbroken')).toEqual({
      initData: 'a=1',
      theme: {},
      colorScheme: null,
    });
  });

  it('tells a dark background from a light one', () => {
    expect(isDarkColour('#17212b')).toBe(true);
    expect(isDarkColour('#ffffff')).toBe(false);
    expect(isDarkColour('#8774e1')).toBe(false);
    expect(isDarkColour('blue')).toBeNull();
    expect(isDarkColour(undefined)).toBeNull();
  });
});
