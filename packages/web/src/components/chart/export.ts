import { CHART_LOCALE, echarts } from './echarts';

/** Saves a data URL or a Blob under a file name, in the browser (no export service). */
export function saveFile(name: string, content: string | Blob): void {
  const url = typeof content === 'string' ? content : URL.createObjectURL(content);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  if (typeof content !== 'string') setTimeout(() => URL.revokeObjectURL(url), 1000);
}

type Chart = ReturnType<typeof echarts.init>;

function background(): string {
  return document.documentElement.classList.contains('dark') ? '#0f172a' : '#ffffff';
}

export function chartImage(chart: Chart, type: 'png' | 'jpeg'): string {
  return chart.getDataURL({ type, pixelRatio: 2, backgroundColor: background() });
}

/** SVG of the chart's current option, drawn by ECharts' SVG renderer loaded on demand. */
export async function chartSvg(chart: Chart): Promise<string> {
  const { install } = await import('echarts/lib/renderer/installSVGRenderer.js');
  echarts.use(install);
  const svgChart = echarts.init(null, null, {
    renderer: 'svg',
    ssr: true,
    locale: CHART_LOCALE,
    width: chart.getWidth(),
    height: chart.getHeight(),
  });
  svgChart.setOption({ ...chart.getOption(), backgroundColor: background(), animation: false });
  const svg = svgChart.renderToSVGString();
  svgChart.dispose();
  return svg;
}

/** A one-page PDF of the chart (jsPDF loaded on demand). */
export async function chartPdf(chart: Chart, title: string): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const width = chart.getWidth();
  const height = chart.getHeight();
  const pdf = new jsPDF({
    orientation: width >= height ? 'landscape' : 'portrait',
    unit: 'px',
    format: [width, height + 30],
  });
  pdf.setFontSize(12);
  pdf.addImage(chartImage(chart, 'png'), 'PNG', 0, 30, width, height);
  pdf.setProperties({ title });
  return pdf.output('blob');
}

/** Prints the chart alone: an invisible frame holding its image (max width 780 px, spec §9). */
export function printChart(chart: Chart, title: string): void {
  const frame = document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.append(frame);
  const doc = frame.contentDocument!;
  doc.title = title;
  const img = doc.createElement('img');
  img.style.maxWidth = '780px';
  img.style.width = '100%';
  img.src = chartImage(chart, 'png');
  doc.body.append(img);
  img.onload = () => {
    frame.contentWindow!.focus();
    frame.contentWindow!.print();
    setTimeout(() => frame.remove(), 1000);
  };
}
