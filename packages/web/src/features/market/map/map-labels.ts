import type { Map as MapLibreMap } from 'maplibre-gl';

/** A cluster's count where its circle is drawn: its text and its place in CSS pixels of the map. */
export type ClusterLabel = [text: string, x: number, y: number];

/**
 * The clusters' counts of a clustered source in the map's view, once each (a cluster is in every tile it
 * touches). Drawn on a 2D canvas over the map, not as a symbol layer: in headless Chromium a symbol layer is a
 * program and its glyphs more for software WebGL (~0.15 s of «Рынок»'s first draw), and 40 words on a canvas
 * cost nothing.
 */
export function clusterLabels(m: MapLibreMap, source: string): ClusterLabel[] {
  const { clientWidth: width, clientHeight: height } = m.getContainer();
  const seen = new Set<unknown>();
  const out: ClusterLabel[] = [];
  for (const f of m.querySourceFeatures(source, { filter: ['has', 'point_count'] })) {
    const id = f.properties.cluster_id;
    if (seen.has(id)) continue;
    seen.add(id);
    const [lon, lat] = (f.geometry as unknown as { coordinates: [number, number] }).coordinates;
    const { x, y } = m.project([lon, lat]);
    if (x < -30 || y < -30 || x > width + 30 || y > height + 30) continue;
    out.push([String(f.properties.point_count_abbreviated ?? f.properties.point_count), x, y]);
  }
  return out;
}

/** The counts drawn on `canvas` (sized as the map's drawing buffer, `ratio` device pixels a CSS pixel). */
export function drawLabels(canvas: HTMLCanvasElement, labels: readonly ClusterLabel[], ratio: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, canvas.width / ratio, canvas.height / ratio);
  ctx.font = '600 12px Nunito, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#ffffff';
  for (const [text, x, y] of labels) ctx.fillText(text, x, y);
}
