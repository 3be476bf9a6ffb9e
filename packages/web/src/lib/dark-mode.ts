import { createStore, useStore } from './store';

/** Dark mode: class `dark` on <html>, persisted as localStorage `darkMode` = '1' | '0' when toggled. */
export const darkModeStore = createStore(
  typeof document !== 'undefined' && document.documentElement.classList.contains('dark'),
);

export function setDarkMode(on: boolean): void {
  const root = document.documentElement;
  // no colour transitions while the palette flips (avoids a flash)
  root.classList.add('[&_*]:!transition-none');
  root.classList.toggle('dark', on);
  localStorage.setItem('darkMode', on ? '1' : '0');
  darkModeStore.set(on);
  setTimeout(() => root.classList.remove('[&_*]:!transition-none'), 200);
}

export const useDarkMode = () => useStore(darkModeStore);
