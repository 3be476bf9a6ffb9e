// ECharts ships its renderer installers as separate modules without their own declarations; importing
// them one by one keeps the SVG renderer out of the dashboard bundle (it loads on an SVG download).
declare module 'echarts/lib/renderer/installCanvasRenderer.js' {
  import type { use } from 'echarts/core';
  export const install: Extract<Parameters<typeof use>[0], (...args: never[]) => unknown>;
}
declare module 'echarts/lib/renderer/installSVGRenderer.js' {
  import type { use } from 'echarts/core';
  export const install: Extract<Parameters<typeof use>[0], (...args: never[]) => unknown>;
}
declare module 'echarts/lib/i18n/langRU.js' {
  import type { registerLocale } from 'echarts/core';

  const lang: Parameters<typeof registerLocale>[1];
  export default lang;
}
