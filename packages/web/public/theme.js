// Dark mode before the first paint: the stored choice, else the system preference.
(() => {
  try {
    const stored = localStorage.getItem('darkMode');
    if (stored === '1' || (stored === null && matchMedia('(prefers-color-scheme: dark)').matches))
      document.documentElement.classList.add('dark');
  } catch {}
})();
