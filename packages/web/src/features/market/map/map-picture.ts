import { GREY, SCALE } from './map-data';

/**
 * The map's PNG (issue 46): the canvas as drawn, the clusters' counts over it, with its legend under it — the colour's name, the scale
 * with its two ends, the grey of registry-only projects — as one picture, like every chart's download.
 */
export function mapPicture(
  map: HTMLCanvasElement,
  legend: { title: string; low: string; high: string },
  /** the clusters' counts drawn over the map (a canvas of its size) */
  labels: HTMLCanvasElement | null = null,
): string {
  const ratio = window.devicePixelRatio || 1;
  const strip = Math.round(40 * ratio);
  const out = document.createElement('canvas');
  out.width = map.width;
  out.height = map.height + strip;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('нет холста для картинки');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(map, 0, 0);
  if (labels) ctx.drawImage(labels, 0, 0);
  const y = map.height + strip / 2;
  ctx.font = `${Math.round(13 * ratio)}px Nunito, sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#334155';
  let x = 12 * ratio;
  for (const [text, after] of [
    [`${legend.title}:`, 8],
    [legend.low, 8],
  ] as const) {
    ctx.fillText(text, x, y);
    x += ctx.measureText(text).width + after * ratio;
  }
  const width = 160 * ratio;
  const gradient = ctx.createLinearGradient(x, 0, x + width, 0);
  SCALE.forEach((c, i) => gradient.addColorStop(i / (SCALE.length - 1), c));
  ctx.fillStyle = gradient;
  ctx.fillRect(x, y - 6 * ratio, width, 12 * ratio);
  x += width + 8 * ratio;
  ctx.fillStyle = '#334155';
  ctx.fillText(legend.high, x, y);
  x += ctx.measureText(legend.high).width + 16 * ratio;
  ctx.fillStyle = GREY;
  ctx.beginPath();
  ctx.arc(x + 6 * ratio, y, 6 * ratio, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = '#334155';
  ctx.fillText('только в реестре', x + 16 * ratio, y);
  return out.toDataURL('image/png');
}
